// The conversation list: the caller's live sessions, named locally (rename), deletable.
import { useState } from 'preact/hooks';
import { html } from './html.js';

const TITLES_KEY = 'citewise.titles';

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
  const rename = (e, id) => {
    e.preventDefault();
    setTitle(user, id, new FormData(e.target).get('title').trim());
    setEditing(null);
    onRenamed();
  };
  return html`
    <div class="sessions">
      <button type="button" class="primary new-chat" onClick=${onNew}>New conversation</button>
      <ul aria-label="Conversations">
        ${sessions.map((s) => {
          const name = titleOf(user, s.session_id) || `Conversation of ${when(s.created_at)}`;
          if (editing === s.session_id) {
            return html`<li key=${s.session_id}><form class="rename" onSubmit=${(e) => rename(e, s.session_id)}>
              <input name="title" value=${name} aria-label="Conversation name" autofocus />
              <button type="submit">Save</button>
              <button type="button" class="ghost" onClick=${() => setEditing(null)}>Cancel</button>
            </form></li>`;
          }
          return html`<li key=${s.session_id} class=${s.session_id === current ? 'current' : ''}>
            <button type="button" class="open" onClick=${() => onSelect(s.session_id)}
              aria-current=${s.session_id === current ? 'true' : null}>
              <span class="name">${name}</span>
              <span class="meta">${s.turns} turn${s.turns === 1 ? '' : 's'} · ${when(s.updated_at)}</span>
            </button>
            <button type="button" class="ghost small" onClick=${() => setEditing(s.session_id)}
              aria-label="Rename ${name}">Rename</button>
            <button type="button" class="ghost small danger" onClick=${() => onDelete(s.session_id)}
              aria-label="Delete ${name}">Delete</button>
          </li>`;
        })}
        ${!sessions.length && html`<li class="empty">No conversations yet.</li>`}
      </ul>
    </div>`;
}
