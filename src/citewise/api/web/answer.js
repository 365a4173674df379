// One answer's text: Markdown rendered and sanitized, its [n] markers turned into buttons
// that show the cited quote, source, section and page on hover or focus and open the source.
import { useEffect, useRef } from 'preact/hooks';
import { marked } from 'marked';
import DOMPurify from 'dompurify';
import { citedWhere, html } from './html.js';

const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g; // [2] or [2, 3]
const UNVERIFIED = 'I could not verify an answer in the documents'; // answer/prompts.py UNVERIFIED
const NOT_AN_ANSWER = new Set(['greeting', 'gratitude', 'garbage', 'off_topic', 'command', 'tool']);

export function citationLabel(c) {
  const { source, section } = citedWhere(c);
  const where = [source, c.page ? `page ${c.page}` : '', section].filter(Boolean);
  return where.join(' · ');
}

function tipFor(c) {
  const tip = document.createElement('span');
  tip.className = 'tip';
  tip.setAttribute('role', 'tooltip');
  if (!c) {
    tip.textContent = 'source not received yet';
    return tip;
  }
  const quote = document.createElement('q');
  quote.textContent = c.quote;
  const where = document.createElement('span');
  where.className = 'where';
  where.textContent = citationLabel(c);
  tip.append(quote, where);
  return tip;
}

function markCitations(root, byN) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.parentElement?.closest('code, pre, a') && MARKER.test(n.data)) texts.push(n);
    MARKER.lastIndex = 0;
  }
  for (const node of texts) {
    const frag = document.createDocumentFragment();
    let last = 0;
    for (const m of node.data.matchAll(MARKER)) {
      frag.append(node.data.slice(last, m.index));
      for (const n of m[1].split(',').map(Number)) {
        const c = byN.get(n);
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'cite';
        button.dataset.n = String(n);
        button.setAttribute('aria-label', c ? `Source ${n}: ${citationLabel(c)}` : `Source ${n}`);
        button.append(`[${n}]`, tipFor(c));
        frag.append(button);
      }
      last = m.index + m[0].length;
    }
    frag.append(node.data.slice(last));
    node.replaceWith(frag);
  }
}

// A tip is placed by hand (fixed, over everything): inside the scrolling answer list it would
// be clipped by the list's edges, the header above it and the source panel beside it.
const GAP = 6;

function placeTip(button) {
  const tip = button.querySelector('.tip');
  if (!tip) return;
  const area = (button.closest('.turns') || document.body).getBoundingClientRect();
  const bounds = {
    left: Math.max(area.left, 0) + GAP, right: Math.min(area.right, window.innerWidth) - GAP,
    top: Math.max(area.top, 0) + GAP, bottom: Math.min(area.bottom, window.innerHeight) - GAP,
  };
  tip.classList.add('open');
  tip.style.maxWidth = `${Math.max(bounds.right - bounds.left, 120)}px`;
  const at = button.getBoundingClientRect();
  const { width, height } = tip.getBoundingClientRect();
  const above = at.top - GAP - height;
  const below = at.bottom + GAP;
  const top = above >= bounds.top ? above
    : below + height <= bounds.bottom ? below
      : Math.max(bounds.top, Math.min(above, bounds.bottom - height));
  const centred = at.left + at.width / 2 - width / 2;
  const left = Math.max(bounds.left, Math.min(centred, bounds.right - width));
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
}

function hideTip(button) {
  button.querySelector('.tip')?.classList.remove('open');
}

export function AnswerText({ text, citations, onOpen }) {
  const ref = useRef(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const byN = new Map(citations.map((c) => [c.n, c]));
    const fragment = DOMPurify.sanitize(marked.parse(text || ''), { RETURN_DOM_FRAGMENT: true });
    markCitations(fragment, byN);
    el.replaceChildren(fragment);
  }, [text, citations]);
  const onClick = (e) => {
    const button = e.target.closest('button.cite');
    if (!button) return;
    const c = citations.find((x) => x.n === Number(button.dataset.n));
    if (c) onOpen(c);
  };
  useEffect(() => {
    const el = ref.current;
    const cite = (e) => e.target.closest?.('button.cite');
    const show = (e) => { const b = cite(e); if (b) placeTip(b); };
    const leave = (e) => {
      const b = cite(e);
      if (b && !b.contains(e.relatedTarget) && b !== document.activeElement) hideTip(b);
    };
    const blur = (e) => { const b = cite(e); if (b && !b.matches(':hover')) hideTip(b); };
    el.addEventListener('pointerover', show);
    el.addEventListener('pointerout', leave);
    el.addEventListener('focusin', show);
    el.addEventListener('focusout', blur);
    return () => {
      el.removeEventListener('pointerover', show);
      el.removeEventListener('pointerout', leave);
      el.removeEventListener('focusin', show);
      el.removeEventListener('focusout', blur);
    };
  }, []);
  return html`<div class="answer-text" ref=${ref} onClick=${onClick}></div>`;
}

// "Not in your documents" is said plainly; otherwise the confidence.
export function Verdict({ turn }) {
  if (turn.streaming || turn.error || !turn.done) return null;
  if (NOT_AN_ANSWER.has(turn.intent)) return null;
  if (turn.confidence === 'none' || (!turn.citations.length && !turn.grounded)) {
    // the model answered, but nothing it wrote held up against the passages
    if (turn.answer.trim().startsWith(UNVERIFIED)) {
      return html`<p class="verdict none" role="note">No verified answer: what the model wrote is not supported by your documents.</p>`;
    }
    return html`<p class="verdict none" role="note">Not in your documents: no passage supports an answer.</p>`;
  }
  if (!turn.confidence) return null; // a turn from the history: its confidence is not kept
  // the model could not be reached or its reply broke (down, timed out, cut, malformed)
  const fallback = turn.fallback
    ? html`<span class="fallback-notice"><br />The model's answer could not be used (${turn.fallback.reason}); ${turn.fallback.used === 'passages' ? 'these are the most relevant passages' : 'this is the extractive answer'}.</span>`
    : '';
  const kind = turn.kind === 'passage' ? ' · the closest passage, not a direct answer' : '';
  return html`<p class="verdict ${turn.confidence}">Confidence: <strong>${turn.confidence}</strong>
    ${turn.grounded ? '' : ' · not every sentence is supported by a source'}${kind}${fallback}</p>`;
}

export function copyText(turn) {
  const lines = [turn.answer.trim()];
  if (turn.citations.length) {
    lines.push('', 'Sources:');
    for (const c of turn.citations) lines.push(`[${c.n}] ${citationLabel(c)}${c.quote ? ` — “${c.quote}”` : ''}`);
  }
  return lines.join('\n');
}

export async function copyToClipboard(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}
