// The HTTP API as the UI uses it: JSON calls with the login token, answers streamed as
// server-sent events over fetch (POST; EventSource cannot send one), uploads with byte
// progress (XMLHttpRequest.upload.onprogress).
const TOKEN_KEY = 'citewise.token';
let token = localStorage.getItem(TOKEN_KEY);

export function setToken(value) {
  token = value;
  if (value) localStorage.setItem(TOKEN_KEY, value);
  else localStorage.removeItem(TOKEN_KEY);
}

export const hasToken = () => Boolean(token);

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function headers(extra = {}) {
  return token ? { Authorization: `Bearer ${token}`, ...extra } : extra;
}

// The server's own words: FastAPI's `detail` (a string or a list of problems) or our `error`.
export function messageOf(status, body) {
  let text = '';
  if (body && typeof body === 'object') {
    const d = typeof body.error === 'string' ? body.error : body.detail ?? body.error?.message ?? body.message;
    if (Array.isArray(d)) text = d.map((p) => `${(p.loc || []).slice(1).join('.')}: ${p.msg}`).join('; ');
    else if (d) text = String(d);
  } else if (typeof body === 'string') text = body.slice(0, 300);
  return text || `the server answered ${status}`;
}

async function failure(res) {
  let body = null;
  try { body = await res.clone().json(); } catch { try { body = await res.text(); } catch { /* none */ } }
  if (res.status === 401 && token) {
    setToken(null);
    window.dispatchEvent(new CustomEvent('citewise:logged-out'));
  }
  return new ApiError(res.status, messageOf(res.status, body));
}

export async function api(path, { method = 'GET', json, form, signal } = {}) {
  const init = { method, headers: headers(), signal };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers['Content-Type'] = 'application/json';
  } else if (form !== undefined) {
    init.body = new URLSearchParams(form);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'cannot reach the citewise server');
  }
  if (!res.ok) throw await failure(res);
  if (res.status === 204) return null;
  return res.json();
}

// Server-sent events from `path`: yields {event, data} (data parsed as JSON when it is).
export async function* events(path, { method = 'GET', json, signal } = {}) {
  const init = { method, signal, headers: headers({ Accept: 'text/event-stream' }) };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers['Content-Type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'cannot reach the citewise server');
  }
  if (!res.ok) throw await failure(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const parsed = parseEvent(block);
      if (parsed) yield parsed;
    }
  }
}

function parseEvent(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const at = line.indexOf(':');
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (!data.length) return null;
  const text = data.join('\n');
  try { return { event, data: JSON.parse(text) }; } catch { return { event, data: text }; }
}

// Uploads one file; `onProgress(sent, total)` while bytes go out. Resolves with the job.
export function upload(path, file, onProgress) {
  const xhr = new XMLHttpRequest();
  const promise = new Promise((resolve, reject) => {
    xhr.open('POST', path);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response);
      else reject(new ApiError(xhr.status, messageOf(xhr.status, xhr.response)));
    };
    xhr.onerror = () => reject(new ApiError(0, 'the upload was cut off by the server or the network'));
    xhr.onabort = () => reject(new ApiError(0, 'upload cancelled'));
    const body = new FormData();
    body.append('files', file, file.name);
    xhr.send(body);
  });
  return { promise, abort: () => xhr.abort() };
}

export const enc = encodeURIComponent;
