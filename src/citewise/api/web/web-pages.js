// Adding web pages to a collection: the server fetches the address (a page, a sitemap's
// pages, or with "follow links" a crawl of the same site up to a page limit) and reads them
// as a job, followed here through its events; when it ends each page's outcome is listed,
// refusals (robots.txt, a private address) with the reason.
import { useState } from 'preact/hooks';
import { api, enc, events } from './api.js';
import { html } from './html.js';

const ADDED = new Set(['done', 'unchanged']);
const pageOf = (f) => ({ source: f.name, status: f.stage, reason: f.reason });

export function WebPages({ collection, maxPages, onAdded }) {
  const [url, setUrl] = useState('');
  const [crawl, setCrawl] = useState(false);
  const [pages, setPages] = useState(Math.min(10, maxPages || 10));
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState([]);
  const [error, setError] = useState('');
  const [progress, setProgress] = useState('');

  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    setResults([]);
    try {
      const query = collection ? `?collection=${enc(collection)}` : '';
      const json = { url: url.trim(), crawl, ...(crawl ? { max_pages: Number(pages) } : {}) };
      const job = await api(`/documents/web${query}`, { method: 'POST', json });
      for await (const { event, data } of events(`/jobs/${enc(job.job_id)}/events`)) {
        const file = data.files?.[0];
        if (file?.stage === 'embed' && file.to_embed) setProgress(`embedding ${file.embedded} of ${file.to_embed} passages…`);
        if (event === 'done') break;
      }
      const final = await api(`/jobs/${enc(job.job_id)}`);
      const listed = (final.files || []).map(pageOf);
      setResults(listed);
      if (final.error && !listed.some((p) => p.reason)) setError(final.error);
      if (listed.some((p) => ADDED.has(p.status))) onAdded();
    } catch (err) {
      setError(err.message);
    } finally {
      setBusy(false);
      setProgress('');
    }
  };

  return html`
    <form class="web-pages" onSubmit=${submit} aria-label="Add web pages">
      <label class="web-url">Web page or sitemap
        <input type="url" required placeholder="https://example.org/handbook/" value=${url}
          onInput=${(e) => setUrl(e.target.value)} disabled=${busy} />
      </label>
      <label class="check"><input type="checkbox" checked=${crawl} disabled=${busy}
        onChange=${(e) => setCrawl(e.target.checked)} /> Follow links on the same site</label>
      ${crawl && html`<label class="pages">at most
        <input type="number" min="1" max=${maxPages || undefined} value=${pages} disabled=${busy}
          onInput=${(e) => setPages(e.target.value)} /> pages</label>`}
      <button type="submit" class="primary" disabled=${busy || !url.trim()}>${busy ? 'Fetching…' : 'Add'}</button>
      ${busy && html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>Fetching and reading the pages… ${progress}</p>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${results.length > 0 && html`
        <ul class="uploads web-results" aria-label="Fetched pages" aria-live="polite">
          ${results.map((o) => html`<li key=${o.source} class=${`upload ${ADDED.has(o.status) ? 'done' : 'failed'}`} data-name=${o.source}>
            <span class="name">${o.source}</span> <span class="stage">${o.status}</span>
            ${o.reason && html`<span class=${ADDED.has(o.status) ? 'reason' : 'reason error'}>${o.reason}</span>`}
          </li>`)}
        </ul>`}
    </form>`;
}
