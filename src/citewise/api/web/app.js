// The web UI's shell: who is logged in, the navigation, the theme, and the views.
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, hasToken, setToken } from './api.js';
import { html } from './html.js';
import { Login, Keys, Admin } from './accounts.js';
import { Chat } from './chat.js';
import { Documents } from './documents.js';

const THEME_KEY = 'citewise.theme';

function routeOf() {
  const name = location.hash.replace(/^#\/?/, '').split('/')[0];
  return ['chat', 'documents', 'keys', 'admin'].includes(name) ? name : 'chat';
}

function useTheme() {
  const [theme, setTheme] = useState(localStorage.getItem(THEME_KEY) || 'auto');
  useEffect(() => {
    if (theme === 'auto') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    localStorage.setItem(THEME_KEY, theme);
  }, [theme]);
  const next = { auto: 'dark', dark: 'light', light: 'auto' }[theme];
  return [theme, () => setTheme(next)];
}

function App() {
  const [me, setMe] = useState(null);
  const [error, setError] = useState('');
  const [checking, setChecking] = useState(true);
  const [route, setRoute] = useState(routeOf());
  const [collections, setCollections] = useState([]);
  const [collection, setCollection] = useState('');
  const [theme, nextTheme] = useTheme();

  const loadMe = useCallback(async () => {
    setChecking(true);
    try {
      const who = await api('/auth/me');
      setMe(who);
      setError('');
      const list = await api('/collections').catch(() => []);
      setCollections(list);
      setCollection((c) => c || who.searches?.[0] || who.home_collection || list[0]?.name || '');
    } catch (err) {
      setMe(null);
      if (err.status !== 401) setError(err.message);
    } finally {
      setChecking(false);
    }
  }, []);

  useEffect(() => { loadMe(); }, [loadMe]);
  useEffect(() => {
    const onHash = () => setRoute(routeOf());
    const onLogout = () => { setMe(null); };
    window.addEventListener('hashchange', onHash);
    window.addEventListener('citewise:logged-out', onLogout);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('citewise:logged-out', onLogout);
    };
  }, []);

  const logout = () => {
    setToken(null);
    setMe(null);
    setCollection('');
  };

  if (checking && !me) return html`<p class="boot" role="status">Loading citewise…</p>`;
  if (!me) {
    return html`<${Login} error=${error} onLoggedIn=${loadMe} />`;
  }
  const views = {
    chat: html`<${Chat} me=${me} collections=${collections} collection=${collection} />`,
    documents: html`<${Documents} me=${me} collections=${collections} collection=${collection}
      onCollection=${setCollection} onCollectionsChanged=${loadMe} />`,
    keys: html`<${Keys} me=${me} />`,
    admin: html`<${Admin} me=${me} collections=${collections} onChanged=${loadMe} />`,
  };
  const link = (name, label) => html`<a href=${`#/${name}`} aria-current=${route === name ? 'page' : null}>${label}</a>`;
  return html`
    <header class="top">
      <a class="brand" href="#/chat">citewise</a>
      <nav aria-label="Main">
        ${link('chat', 'Chat')}${link('documents', 'Documents')}
        ${me.via !== 'local' && link('keys', 'API keys')}
        ${me.is_admin && link('admin', 'Admin')}
      </nav>
      <label class="picker">
        <span class="sr-only">Collection</span>
        <select value=${collection} onChange=${(e) => setCollection(e.target.value)} aria-label="Collection">
          ${collections.map((c) => html`<option value=${c.name}>${c.name}</option>`)}
        </select>
      </label>
      <button type="button" class="ghost" onClick=${nextTheme} title="Theme: ${theme}" aria-label="Theme: ${theme}">
        ${{ auto: '◐', dark: '☾', light: '☀' }[theme]}
      </button>
      <span class="who" title=${me.username}>${me.username}</span>
      ${(me.via !== 'local' || hasToken()) && html`<button type="button" class="ghost" onClick=${logout}>Log out</button>`}
    </header>
    <main id="main">${views[route]}</main>
  `;
}

render(html`<${App} />`, document.getElementById('app'));
