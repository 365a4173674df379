// Documents of a collection: upload by picker or drag-and-drop with a byte progress bar,
// then the job's parse and embed progress per file; web pages by address (web-pages.js);
// list, search by name, delete, re-ingest.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, enc, events, upload } from './api.js';
import { CollectionNote } from './collection-note.js';
import { fileName, html } from './html.js';
import { WebPages } from './web-pages.js';

const STAGE_LABEL = {
  queued: 'queued', parse: 'parsing', embed: 'embedding', done: 'ready',
  unchanged: 'ready (unchanged)', duplicate: 'duplicate', failed: 'failed',
};

// Binary units, as the server words its limits ("400 KiB").
export function size(bytes) {
  const fmt = (v) => v.toFixed(1).replace(/\.0$/, '');
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${fmt(bytes / 1024)} KiB`;
  return `${fmt(bytes / 1024 ** 2)} MiB`;
}

export function Documents({ me, collections, collection, onCollection }) {
  const [docs, setDocs] = useState([]);
  const [query, setQuery] = useState('');
  const [uploads, setUploads] = useState([]);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);
  const [limit, setLimit] = useState(null);
  const [types, setTypes] = useState([]);
  const [webPages, setWebPages] = useState(null);
  const [dragging, setDragging] = useState(false);
  const picker = useRef(null);
  const target = collections.find((c) => c.name === collection);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const list = await api(`/documents${collection ? `?collection=${enc(collection)}` : ''}`);
      setDocs(list.documents);
      setError('');
    } catch (err) {
      setError(err.message);
      setDocs([]);
    } finally {
      setLoading(false);
    }
  }, [collection]);
  useEffect(() => { load(); }, [load]);
  useEffect(() => {
    api('/ui-api/config').then((c) => { setLimit(c.max_upload_bytes); setTypes(c.upload_types || []); setWebPages(c.web_max_pages); }).catch(() => {});
  }, []);

  const patch = (id, change) => setUploads((us) => us.map((u) => (u.id === id ? { ...u, ...change } : u)));

  const follow = async (id, job) => {
    try {
      for await (const { event, data } of events(`/jobs/${enc(job.job_id)}/events`)) {
        const file = data.files?.[0];
        if (file) patch(id, { stage: file.stage, reason: file.reason, embedded: file.embedded, toEmbed: file.to_embed });
        if (event === 'done') break;
      }
      const final = await api(`/jobs/${enc(job.job_id)}`);
      const file = final.files?.[0];
      if (final.state === 'failed' && (!file || file.stage !== 'failed')) patch(id, { stage: 'failed', reason: final.error });
      else if (file) patch(id, { stage: file.stage, reason: file.reason });
    } catch (err) {
      patch(id, { stage: 'failed', reason: err.message });
    }
    load();
  };

  const send = async (files) => {
    for (const file of files) {
      const id = `${Date.now()}-${Math.random()}`;
      const entry = { id, name: file.name, size: file.size, sent: 0, stage: 'uploading', reason: '' };
      setUploads((us) => [entry, ...us]);
      // a taken name goes beside the document unless the user chooses to replace it
      const taken = docs.some((d) => d.source === file.name);
      const replace = taken && confirm(`${file.name} is already in ${collection || 'this collection'}. Replace it? (Cancel keeps both.)`);
      const params = new URLSearchParams();
      if (collection) params.set('collection', collection);
      if (replace) params.set('replace', 'true');
      const path = `/documents${params.size ? `?${params}` : ''}`;
      try {
        const job = await upload(path, file, (sent) => patch(id, { sent })).promise;
        patch(id, { sent: file.size, stage: job.files?.[0]?.stage || 'queued', reason: job.files?.[0]?.reason || '' });
        if (job.state === 'done') { load(); continue; }
        follow(id, job);
      } catch (err) {
        // a server refusing a body mid-way may close the connection before its 413 arrives
        const cut = err.status === 0 && limit && file.size > limit;
        patch(id, { stage: 'failed', reason: cut ? `too large: ${size(file.size)}; the upload limit is ${size(limit)}` : err.message });
      }
    }
  };

  const onDrop = (e) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer?.files?.length) send([...e.dataTransfer.files]);
  };

  const remove = async (doc) => {
    if (!confirm(`Delete ${doc.source} from ${collection}?`)) return;
    try {
      await api(`/documents/${doc.source.split('/').map(enc).join('/')}?collection=${enc(collection)}`, { method: 'DELETE' });
      load();
    } catch (err) { setError(err.message); }
  };

  const reingest = async (doc) => {
    const id = `${Date.now()}-${Math.random()}`;
    setUploads((us) => [{ id, name: doc.source, size: doc.size, sent: doc.size, stage: 'queued', reason: 're-ingest' }, ...us]);
    try {
      const job = await api(`/documents/${doc.source.split('/').map(enc).join('/')}/reingest?collection=${enc(collection)}`, { method: 'POST' });
      follow(id, job);
    } catch (err) { patch(id, { stage: 'failed', reason: err.message }); }
  };

  const shown = docs.filter((d) => d.source.toLowerCase().includes(query.toLowerCase()) || d.title.toLowerCase().includes(query.toLowerCase()));
  const writable = target ? target.may_write : true;
  return html`
    <div class="documents">
      <div class="doc-head">
        <h1>Documents</h1>
        <label>Collection
          <select value=${collection} onChange=${(e) => onCollection(e.target.value)}>
            ${collections.map((c) => html`<option value=${c.name}>${c.name}${c.may_write ? '' : ' (read only)'}</option>`)}
          </select>
        </label>
      </div>
      ${writable && html`
        <div class=${`dropzone ${dragging ? 'over' : ''}`}
          onDragOver=${(e) => { e.preventDefault(); setDragging(true); }}
          onDragLeave=${() => setDragging(false)} onDrop=${onDrop}>
          <p>Drop documents, spreadsheets, e-mails, e-books or text files here, or</p>
          <button type="button" class="primary" onClick=${() => picker.current.click()}>Choose files…</button>
          <input type="file" multiple ref=${picker} class="sr-only" aria-label="Choose files to upload"
            accept=${types.join(',')}
            onChange=${(e) => { send([...e.target.files]); e.target.value = ''; }} />
          ${limit && html`<p class="note">Up to ${size(limit)} per file.</p>`}
          ${types.length > 0 && html`<p class="note">Reads ${types.join(' ')}</p>`}
        </div>
        <${WebPages} collection=${collection} maxPages=${webPages} onAdded=${load} />`}
      ${uploads.length > 0 && html`
        <ul class="uploads" aria-label="Uploads" aria-live="polite">
          ${uploads.map((u) => html`<${UploadRow} key=${u.id} u=${u} />`)}
        </ul>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${!loading && !error && !docs.length && html`<${CollectionNote} me=${me} collections=${collections} collection=${collection} count=${0} />`}
      <label class="search">Search by name
        <input type="search" value=${query} onInput=${(e) => setQuery(e.target.value)} placeholder="file name or title" />
      </label>
      ${loading ? html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>Loading…</p>` : html`
        <table class="doc-table">
          <thead><tr><th>Name</th><th>Format</th><th>Pages</th><th>Chunks</th><th>Size</th><th>Status</th><th><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            ${shown.map((d) => html`<tr key=${d.source} data-source=${d.source}>
              <td class="name" title=${d.title}>${fileName(d.source)}</td><td>${d.format}</td><td>${d.pages ?? '—'}</td>
              <td>${d.chunks}</td><td>${size(d.size)}</td><td class="status-cell ${d.status}">${d.status}</td>
              <td class="actions">${writable && html`
                <button type="button" class="ghost small" onClick=${() => reingest(d)}>Re-ingest</button>
                <button type="button" class="ghost small danger" onClick=${() => remove(d)}>Delete</button>`}</td>
            </tr>`)}
            ${!shown.length && html`<tr><td colspan="7" class="empty">${docs.length ? 'No document matches.' : 'No documents yet.'}</td></tr>`}
          </tbody>
        </table>`}
    </div>`;
}

function UploadRow({ u }) {
  const uploading = u.stage === 'uploading';
  const embedding = u.stage === 'embed' && u.toEmbed > 0;
  const value = uploading ? u.sent : embedding ? u.embedded : null;
  const max = uploading ? u.size : embedding ? u.toEmbed : null;
  const label = uploading ? `uploading ${Math.round((100 * u.sent) / Math.max(u.size, 1))}%` : STAGE_LABEL[u.stage] || u.stage;
  return html`<li class=${`upload ${u.stage}`} data-name=${u.name}>
    <span class="name">${fileName(u.name)}</span>
    <span class="stage">${label}${embedding ? ` ${u.embedded}/${u.toEmbed}` : ''}</span>
    ${value !== null
      ? html`<progress value=${value} max=${max} aria-label="${u.name} progress"></progress>`
      : !['done', 'unchanged', 'duplicate', 'failed'].includes(u.stage) && html`<progress aria-label="${u.name} progress"></progress>`}
    ${u.reason && html`<span class=${u.stage === 'failed' ? 'reason error' : 'reason'}>${u.reason}</span>`}
  </li>`;
}
