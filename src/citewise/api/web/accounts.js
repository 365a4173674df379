// Accounts: log in, API keys (create with scopes and expiry, revoke), and the admin page
// for users and collections.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, enc, setToken } from './api.js';
import { html } from './html.js';

const when = (s) => (s ? new Date(s * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' }) : 'never');

export function Login({ error, onLoggedIn }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState(error || '');
  const submit = async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    setBusy(true);
    setProblem('');
    try {
      const got = await api('/auth/token', { method: 'POST', form: { username: form.get('username'), password: form.get('password') } });
      setToken(got.access_token);
      await onLoggedIn();
    } catch (err) {
      setProblem(err.status === 401 ? 'Wrong user name or password.' : err.message);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <main class="login">
      <form onSubmit=${submit} aria-labelledby="login-title">
        <h1 id="login-title">citewise</h1>
        <p>Answers only from your documents, with the passage they come from.</p>
        <label>User name <input name="username" autocomplete="username" required autofocus /></label>
        <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
        ${problem && html`<p class="error" role="alert">${problem}</p>`}
        <button type="submit" class="primary" disabled=${busy}>${busy ? 'Logging in…' : 'Log in'}</button>
      </form>
    </main>`;
}

function useList(path) {
  const [items, setItems] = useState([]);
  const [error, setError] = useState('');
  const load = useCallback(async () => {
    try { setItems(await api(path)); setError(''); } catch (err) { setError(err.message); }
  }, [path]);
  useEffect(() => { load(); }, [load]);
  return [items, load, error, setError];
}

export function Keys({ me }) {
  const [keys, load, error, setError] = useList('/auth/keys');
  const [made, setMade] = useState(null);
  const create = async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const days = Number(form.get('days'));
    try {
      const key = await api('/auth/keys', {
        method: 'POST',
        json: { name: form.get('name'), scopes: form.getAll('scope'), expires_in_days: days > 0 ? days : null },
      });
      setMade(key);
      e.target.reset();
      load();
    } catch (err) { setError(err.message); }
  };
  const revoke = async (k) => {
    if (!confirm(`Revoke the key ${k.name || k.key_id}? Programs using it stop working.`)) return;
    try { await api(`/auth/keys/${enc(k.key_id)}`, { method: 'DELETE' }); load(); } catch (err) { setError(err.message); }
  };
  return html`
    <div class="page">
      <h1>API keys</h1>
      <p>A key acts as you (${me.username}) with the scopes you give it; send it as <code>Authorization: Bearer …</code>.</p>
      <form class="card inline" onSubmit=${create}>
        <label>Name <input name="name" maxlength="100" placeholder="laptop script" /></label>
        <fieldset><legend>Scopes</legend>
          ${me.scopes.map((s) => html`<label class="check"><input type="checkbox" name="scope" value=${s} checked=${s === 'read'} /> ${s}</label>`)}
        </fieldset>
        <label>Expires after (days) <input name="days" type="number" min="0" max="3650" step="1" placeholder="never" /></label>
        <button type="submit" class="primary">Create key</button>
      </form>
      ${made && html`<div class="card made" role="status"><p>Your new key — copy it now, it is not shown again:</p>
        <code class="secret">${made.key}</code></div>`}
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <table><thead><tr><th>Name</th><th>Scopes</th><th>Created</th><th>Expires</th><th>State</th><th></th></tr></thead>
        <tbody>${keys.map((k) => html`<tr key=${k.key_id}><td>${k.name || k.key_id}</td><td>${k.scopes.join(', ')}</td>
          <td>${when(k.created_at)}</td><td>${when(k.expires_at)}</td><td>${k.revoked ? 'revoked' : 'active'}</td>
          <td>${!k.revoked && html`<button type="button" class="ghost small danger" onClick=${() => revoke(k)}>Revoke</button>`}</td></tr>`)}
          ${!keys.length && html`<tr><td colspan="6" class="empty">No keys yet.</td></tr>`}
        </tbody></table>
    </div>`;
}

export function Admin({ me, collections, onChanged }) {
  const [users, loadUsers, error, setError] = useList('/admin/users');
  if (!me.is_admin) return html`<p class="error" role="alert">The admin page is for administrators.</p>`;
  const act = async (call) => {
    try { await call(); setError(''); loadUsers(); onChanged(); } catch (err) { setError(err.message); }
  };
  const createUser = (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    act(async () => {
      await api('/admin/users', { method: 'POST', json: { username: f.get('username'), password: f.get('password'), is_admin: f.get('admin') === 'on' } });
      e.target.reset();
    });
  };
  const createCollection = (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    act(async () => { await api('/collections', { method: 'POST', json: { name: f.get('name') } }); e.target.reset(); });
  };
  const grant = (e) => {
    e.preventDefault();
    const f = new FormData(e.target);
    act(() => api(`/collections/${enc(f.get('collection'))}/grants`, {
      method: 'POST', json: { user: f.get('user'), permission: f.get('permission') },
    }));
  };
  return html`
    <div class="page">
      <h1>Admin</h1>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      <h2>Users</h2>
      <table><thead><tr><th>User</th><th>Role</th><th>Own collection</th><th>Since</th><th></th></tr></thead>
        <tbody>${users.map((u) => html`<tr key=${u.user_id}><td>${u.username}</td><td>${u.is_admin ? 'admin' : 'user'}</td>
          <td>${u.home_collection}</td><td>${when(u.created_at)}</td>
          <td>${u.username !== me.username && html`<button type="button" class="ghost small danger"
            onClick=${() => confirm(`Delete the user ${u.username}?`) && act(() => api(`/admin/users/${enc(u.username)}`, { method: 'DELETE' }))}>Delete</button>`}</td></tr>`)}
        </tbody></table>
      <form class="card inline" onSubmit=${createUser}>
        <label>User name <input name="username" required pattern="[A-Za-z0-9][A-Za-z0-9._-]{0,47}" /></label>
        <label>Password <input name="password" type="password" required minlength="8" autocomplete="new-password" /></label>
        <label class="check"><input type="checkbox" name="admin" /> admin</label>
        <button type="submit" class="primary">Create user</button>
      </form>
      <h2>Collections</h2>
      <table><thead><tr><th>Name</th><th>Owner</th><th>Your role</th></tr></thead>
        <tbody>${collections.map((c) => html`<tr key=${c.name}><td>${c.name}</td><td>${c.owner_user || c.owner_group || '—'}</td><td>${c.role}</td></tr>`)}</tbody></table>
      <form class="card inline" onSubmit=${createCollection}>
        <label>New collection <input name="name" required pattern="[A-Za-z0-9._-]{1,64}" /></label>
        <button type="submit" class="primary">Create collection</button>
      </form>
      <form class="card inline" onSubmit=${grant}>
        <label>Collection <select name="collection">${collections.map((c) => html`<option>${c.name}</option>`)}</select></label>
        <label>User <input name="user" required /></label>
        <label>Permission <select name="permission"><option>read</option><option>write</option></select></label>
        <button type="submit" class="primary">Grant</button>
      </form>
    </div>`;
}
