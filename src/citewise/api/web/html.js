// JSX-like templates without a build step: html`<div>${x}</div>` (htm bound to preact).
import { h } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);

// A file name that may wrap after its separators (- _ . / and spaces), never inside a word.
export function fileName(name) {
  return String(name).split(/(?<=[-_./ ])/).flatMap((part, i) => (i ? [html`<wbr />`, part] : [part]));
}

// Where a passage is, as a person reads it: a message's attachment (its heading marked "› "
// by the e-mail parsers) is named beside the message's file: "repairs.eml › report.pdf".
export function citedWhere(c) {
  const parts = c.section ? c.section.split(' > ') : [];
  const files = parts.filter((p) => p.startsWith('› ')).map((p) => p.slice(2));
  const section = parts.filter((p) => !p.startsWith('› ')).join(' > ');
  return { source: [c.source, ...files].join(' › '), section };
}
