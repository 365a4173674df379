// JSX-like templates without a build step: html`<div>${x}</div>` (htm bound to preact).
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
