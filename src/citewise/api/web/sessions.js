// The conversation list: the caller's live sessions, named locally (rename), deletable from
// a menu per item; searched by name and shown a page at a time as the list scrolls.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from './html.js';

const TITLES_KEY = 'citewise.titles';
export const PAGE = 20; // conversations shown at first and added on each scroll to the end

function titles() {
  try { return JSON.parse(localStorage.getItem(TITLES_KEY) || '{}'); } catch { return {}; }
}

export function titleOf(user, sessionId) {
  return titles()[`${user}/${sessionId}`] || '';
}

export function setTitle(user, sessionId, title) {
  const all = titles();
  if (title) all[`${user}/${sessionId}`] = title.slice(0, 80);
  else delete all[`${user}/${sessionId}`];
  localStorage.setItem(TITLES_KEY, JSON.stringify(all));
}

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });
}

export function SessionList({ user, sessions, current, onSelect, onNew, onDelete, onRenamed }) {
  const [editing, setEditing] = useState(null);
  const [menu, setMenu] = useState(null);
  const [query, setQuery] = useState('');
  const [count, setCount] = useState(PAGE);
  const list = useRef(null);

  const nameOf = (s) => s.title || titleOf(user, s.session_id) || `Conversation of ${when(s.created_at)}`;
  const wanted = query.trim().toLowerCase();
  const matching = wanted ? sessions.filter((s) => nameOf(s).toLowerCase().includes(wanted)) : sessions;
  const shown = matching.slice(0, count);

  useEffect(() => { setCount(PAGE); }, [wanted]);
  useEffect(() => {
    if (!menu) return undefined;
    const close = (e) => { if (!e.target.closest?.('.item-menu')) setMenu(null); };
    const onKey = (e) => { if (e.key === 'Escape') { e.stopPropagation(); setMenu(null); } };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [menu]);
  // a short first page that does not fill the list could never be scrolled to load more
  useEffect(() => {
    const el = list.current;
    if (el && shown.length < matching.length && el.scrollHeight <= el.clientHeight) setCount((c) => c + PAGE);
  });

  const onScroll = (e) => {
    const el = e.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 48 && shown.length < matching.length) {
      setCount((c) => c + PAGE);
    }
  };
  const rename = (e, id) => {
    e.preventDefault();
    setTitle(user, id, new FormData(e.target).get('title').trim());
    setEditing(null);
    onRenamed();
  };
  return html`
    <div class="sessions">
      <button type="button" class="primary new-chat" onClick=${onNew}>New conversation</button>
      <input type="search" class="session-search" value=${query} placeholder="Search conversations"
        aria-label="Search conversations" onInput=${(e) => setQuery(e.target.value)} />
      <ul class="list" aria-label="Conversations" ref=${list} onScroll=${onScroll}>
        ${shown.map((s) => {
          const name = nameOf(s);
          if (editing === s.session_id) {
            return html`<li key=${s.session_id} class="session"><form class="rename" onSubmit=${(e) => rename(e, s.session_id)}>
              <input name="title" value=${name} aria-label="Conversation name" autofocus />
              <button type="submit">Save</button>
              <button type="button" class="ghost" onClick=${() => setEditing(null)}>Cancel</button>
            </form></li>`;
          }
          const open = menu === s.session_id;
          return html`<li key=${s.session_id} class=${`session ${s.session_id === current ? 'current' : ''}`}>
            <button type="button" class="open" onClick=${() => onSelect(s.session_id)}
              aria-current=${s.session_id === current ? 'true' : null}>
              <span class="name">${name}</span>
              <span class="meta">${s.turns} turn${s.turns === 1 ? '' : 's'} · ${when(s.updated_at)}</span>
            </button>
            <div class="item-menu" onKeyDown=${(e) => { if (open && e.key === 'Escape') { e.stopPropagation(); setMenu(null); } }}>
              <button type="button" class="ghost small more" aria-haspopup="menu" aria-expanded=${open}
                aria-label="Actions for ${name}" onClick=${() => setMenu(open ? null : s.session_id)}>⋯</button>
              ${open && html`<div class="menu" role="menu" aria-label="Actions for ${name}">
                <button type="button" role="menuitem" onClick=${() => { setMenu(null); setEditing(s.session_id); }}>Rename</button>
                <button type="button" role="menuitem" class="danger" onClick=${() => { setMenu(null); onDelete(s.session_id); }}>Delete</button>
              </div>`}
            </div>
          </li>`;
        })}
        ${!sessions.length && html`<li class="empty">No conversations yet.</li>`}
        ${sessions.length > 0 && !matching.length && html`<li class="empty">No conversation matches.</li>`}
        ${shown.length < matching.length && html`<li class="more-note" aria-hidden="true">Scroll for more…</li>`}
      </ul>
    </div>`;
}
