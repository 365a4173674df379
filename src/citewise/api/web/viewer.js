// The source panel a citation opens: a PDF at its page with the cited lines marked from the
// rectangles taken at ingest (kept with the citation), or a passage shown in its context
// with the quote marked. pdf.js is loaded only when a PDF is first opened.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc, hasToken } from './api.js';
import { citationLabel } from './answer.js';
import { citedWhere, html } from './html.js';

const PDFJS = '/ui/vendor/pdfjs';
let pdfjsReady = null;

function loadPdfjs() {
  if (!pdfjsReady) {
    pdfjsReady = (async () => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = `${PDFJS}/pdf_viewer.css`;
      document.head.append(link);
      const lib = await import(`${PDFJS}/pdf.min.mjs`);
      lib.GlobalWorkerOptions.workerSrc = `${PDFJS}/pdf.worker.min.mjs`;
      globalThis.pdfjsLib = lib; // pdf_viewer.mjs reads it
      const viewer = await import(`${PDFJS}/pdf_viewer.mjs`);
      return { lib, viewer };
    })();
    pdfjsReady.catch(() => { pdfjsReady = null; });
  }
  return pdfjsReady;
}

const isPdf = (c) => (c.format ? c.format === 'pdf' : /\.pdf$/i.test(c.source));

export function SourcePanel({ citation, onClose }) {
  const [located, setLocated] = useState(null);
  const [error, setError] = useState('');
  const closeRef = useRef(null);

  useEffect(() => {
    setLocated(null);
    setError('');
    closeRef.current?.focus();
    if (citation.doc_hash && (citation.boxes?.length || !isPdf(citation))) {
      setLocated(citation);
      return;
    }
    // a citation that came without its place: ask where the passage is
    api(`/ui-api/citations/${citation.chunk_id}?quote=${enc(citation.quote || '')}`)
      .then((where) => setLocated({ ...citation, ...where, page: citation.page ?? where.page }))
      .catch((err) => setError(err.message));
  }, [citation]);

  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return html`
    <aside class="source-panel" aria-label="Source">
      <header>
        <h2>[${citation.n}] ${citedWhere(citation).source}</h2>
        <button type="button" class="ghost" ref=${closeRef} onClick=${onClose} aria-label="Close the source">✕</button>
      </header>
      <p class="where">${citationLabel(citation)}</p>
      ${citation.quote && html`<blockquote class="quote">${citation.quote}</blockquote>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${located && (isPdf(located)
        ? html`<${PdfView} key=${located.doc_hash} citation=${located} />`
        : html`<${PassageView} citation=${located} />`)}
      ${!located && !error && html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>Opening…</p>`}
    </aside>`;
}

// A new document gets a new view (keyed by its hash): one pdf.js viewer per container.
function PdfView({ citation }) {
  const container = useRef(null);
  const viewerRef = useRef(null);
  const [state, setState] = useState({ loading: true, error: '' });
  const boxes = citation.boxes || [];
  const page = boxes.length ? boxes[0].page : citation.page || 1;

  useEffect(() => {
    let task = null;
    let cancelled = false;
    (async () => {
      try {
        const { lib, viewer: v } = await loadPdfjs();
        if (cancelled) return;
        const eventBus = new v.EventBus();
        const linkService = new v.PDFLinkService({ eventBus });
        const el = container.current;
        el.firstElementChild.replaceChildren(); // the pages of a previous citation's viewer
        const pdfViewer = new v.PDFViewer({ container: el, viewer: el.firstElementChild, eventBus, linkService });
        linkService.setViewer(pdfViewer);
        viewerRef.current = pdfViewer;
        eventBus.on('pagesinit', () => {
          if (cancelled) return;
          pdfViewer.currentScaleValue = 'page-width';
          pdfViewer.currentPageNumber = page;
        });
        let scrolled = false; // to the marks once: later renders (zoom) keep the reader's place
        eventBus.on('pagerendered', ({ pageNumber, source }) => {
          if (cancelled) return;
          const first = markBoxes(source, boxes.filter((b) => b.page === pageNumber));
          if (pageNumber === page && first && !scrolled) {
            scrolled = true;
            scrollWithin(el, first);
          }
        });
        const headers = hasToken() ? { Authorization: `Bearer ${localStorage.getItem('citewise.token')}` } : {};
        task = lib.getDocument({
          url: `/ui-api/files/${citation.doc_hash}`, httpHeaders: headers,
          standardFontDataUrl: `${PDFJS}/standard_fonts/`,
        });
        const doc = await task.promise;
        if (cancelled) return;
        pdfViewer.setDocument(doc);
        linkService.setDocument(doc);
        setState({ loading: false, error: '' });
      } catch (err) {
        if (!cancelled) setState({ loading: false, error: `cannot show this PDF: ${err.message || err}` });
      }
    })();
    return () => {
      cancelled = true;
      task?.destroy();
      viewerRef.current?.cleanup();
      viewerRef.current = null;
    };
  }, [citation]);

  const zoom = (factor) => {
    const v = viewerRef.current;
    if (v) v.currentScale = Math.min(4, Math.max(0.4, v.currentScale * factor));
  };
  return html`
    <div class="pdf-tools">
      <button type="button" class="ghost small" onClick=${() => zoom(1 / 1.25)} aria-label="Zoom out">−</button>
      <button type="button" class="ghost small" onClick=${() => zoom(1.25)} aria-label="Zoom in">+</button>
      <button type="button" class="ghost small" onClick=${() => { if (viewerRef.current) viewerRef.current.currentScaleValue = 'page-width'; }}>Fit width</button>
      <a class="small" href=${`/ui-api/files/${citation.doc_hash}`} onClick=${(e) => { e.preventDefault(); download(citation); }}>Download</a>
    </div>
    <div class="pdf-frame">
      ${state.loading && html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>Loading the PDF…</p>`}
      ${state.error && html`<p class="error" role="alert">${state.error}</p>`}
      ${!boxes.length && !state.error && html`<p class="note">This passage has no recorded position; the page is shown.</p>`}
      <div class="pdf-container" ref=${container} tabindex="0" aria-label="PDF page ${page}" data-page=${page}>
        <div class="pdfViewer"></div>
      </div>
    </div>`;
}

// The original with the login token (a plain link could not send it).
async function download(citation) {
  const headers = hasToken() ? { Authorization: `Bearer ${localStorage.getItem('citewise.token')}` } : {};
  const res = await fetch(`/ui-api/files/${citation.doc_hash}`, { headers });
  if (!res.ok) return;
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: citation.source.split('/').pop() });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Boxes are {page, x0, y0, x1, y1} in PDF points (origin bottom-left): both corners go
// through the page view's viewport (6.x has no convertToViewportRectangle), and the marks
// are placed in percent of the page, so they follow it through every zoom and re-render.
function markBoxes(pageView, boxes) {
  pageView.div.querySelectorAll('.cw-highlight').forEach((el) => el.remove());
  const vp = pageView.viewport;
  const pct = (v, of) => `${(100 * v) / of}%`;
  let first = null;
  for (const { x0, y0, x1, y1 } of boxes) {
    const [ax, ay] = vp.convertToViewportPoint(x0, y0);
    const [bx, by] = vp.convertToViewportPoint(x1, y1);
    const mark = document.createElement('div');
    mark.className = 'cw-highlight';
    Object.assign(mark.style, {
      left: pct(Math.min(ax, bx), vp.width), top: pct(Math.min(ay, by), vp.height),
      width: pct(Math.abs(bx - ax), vp.width), height: pct(Math.abs(by - ay), vp.height),
    });
    pageView.div.append(mark);
    first = first || mark;
  }
  return first;
}

// `el` to the middle of the scrolling `container`, and nothing else: an element's own
// scrollIntoView would scroll the window too.
export function scrollWithin(container, el) {
  const box = container.getBoundingClientRect();
  const at = el.getBoundingClientRect();
  container.scrollTop += at.top - box.top - (container.clientHeight - at.height) / 2;
}

function PassageView({ citation }) {
  const [passage, setPassage] = useState(null);
  const [error, setError] = useState('');
  const mark = useRef(null);
  const box = useRef(null);
  useEffect(() => {
    setPassage(null);
    api(`/ui-api/passages/${citation.chunk_id}`).then(setPassage).catch((err) => setError(err.message));
  }, [citation]);
  useEffect(() => { if (mark.current) scrollWithin(box.current, mark.current); }, [passage]);
  if (error) return html`<p class="error" role="alert">${error}</p>`;
  if (!passage) return html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>Loading the passage…</p>`;
  const [pre, hit, post] = splitQuote(passage.text, citation.quote || '');
  return html`
    <div class="passage" tabindex="0" ref=${box}>
      ${passage.section && html`<p class="section">${citedWhere(passage).section}${passage.page ? ` · slide/page ${passage.page}` : ''}</p>`}
      ${passage.before.map((t) => html`<p class="context">${t}</p>`)}
      <p class="cited">${pre}<mark ref=${mark}>${hit}</mark>${post}</p>
      ${passage.after.map((t) => html`<p class="context">${t}</p>`)}
    </div>`;
}

// The quote's place in the text, spacing ignored; the whole text when it is not there.
function splitQuote(text, quote) {
  const words = quote.trim().replace(/[….]+$/, '').split(/\s+/).filter(Boolean);
  if (!words.length) return ['', text, ''];
  const pattern = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  const m = new RegExp(pattern, 'i').exec(text);
  if (!m) return ['', text, ''];
  return [text.slice(0, m.index), m[0], text.slice(m.index + m[0].length)];
}
