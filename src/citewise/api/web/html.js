// JSX-like templates without a build step: html`<div>${x}</div>` (htm bound to preact).
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);

// A file name that may wrap after its separators (- _ . / and spaces), never inside a word.
export function fileName(name) {
  return String(name).split(/(?<=[-_./ ])/).flatMap((part, i) => (i ? [html`<wbr />`, part] : [part]));
}
