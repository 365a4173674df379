// Where the answers come from when the chosen collection is empty: questions also search the
// shared (global) collection, so a user whose own collection is empty is told so plainly.
import { useEffect, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { html } from './html.js';

async function documentCount(collection) {
  const list = await api(`/documents?collection=${enc(collection)}`);
  return list.documents.length;
}

// `count`: the chosen collection's documents when the caller already knows them.
export function CollectionNote({ me, collections, collection, count }) {
  const [note, setNote] = useState(null);
  const shared = collections.filter((c) => c.role === 'global').map((c) => c.name);
  const searched = [...new Set([collection, ...shared, ...(me.searches || [])])].filter((c) => c && c !== collection);
  const key = `${collection}|${searched.join(',')}|${count ?? ''}`;

  useEffect(() => {
    let stale = false;
    setNote(null);
    if (!collection) return undefined;
    (async () => {
      const own = count ?? await documentCount(collection);
      if (own > 0) return;
      const others = await Promise.all(searched.map(async (c) => [c, await documentCount(c).catch(() => 0)]));
      if (!stale) setNote({ own: collection, from: others.filter(([, n]) => n > 0) });
    })().catch(() => {});
    return () => { stale = true; };
  }, [key]);

  if (!note) return null;
  const plural = (n) => `${n} document${n === 1 ? '' : 's'}`;
  if (!note.from.length) {
    return html`<p class="collection-note" role="note">The collection <strong>${note.own}</strong> has no documents yet,
      and no other collection you search has any: <a href="#/documents">upload some</a>.</p>`;
  }
  return html`<p class="collection-note" role="note">Your collection <strong>${note.own}</strong> has no documents yet,
    so answers come from ${note.from.map(([c, n], i) => html`${i ? ', ' : ''}<strong>${c}</strong> (${plural(n)})`)}.${' '}
    <a href="#/documents">Upload your own</a> to ask about them.</p>`;
}
