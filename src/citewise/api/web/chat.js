// The chat: a conversation's turns, the answer streaming in, stop, copy, follow-ups in the
// same session, the session list, and the source panel a citation opens.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, enc, events } from './api.js';
import { AnswerText, Verdict, copyText, copyToClipboard } from './answer.js';
import { CollectionNote } from './collection-note.js';
import { citedWhere, fileName, html } from './html.js';
import { SessionList, setTitle, titleOf } from './sessions.js';
import { GraphPanel } from './graph.js';
import { SourcePanel } from './viewer.js';

function turnOfHistory(t) {
  const citations = (t.sources || []).map((s, i) => ({ n: s.n ?? i + 1, ...s }));
  return {
    question: t.question, answer: t.answer, intent: t.intent, citations,
    confidence: citations.length ? null : 'none', grounded: citations.length > 0,
    done: true, fromHistory: true,
  };
}

const TITLE_BATCH = 6; // histories read at once to name conversations started elsewhere

export function Chat({ me, collections, collection }) {
  const [sessions, setSessions] = useState([]);
  const [current, setCurrent] = useState(null);
  const [turns, setTurns] = useState([]);
  const [question, setQuestion] = useState('');
  const [error, setError] = useState('');
  const [source, setSource] = useState(null);
  const [graphOf, setGraphOf] = useState(null);
  const [showList, setShowList] = useState(false);
  const abort = useRef(null);
  const scroller = useRef(null);
  const streaming = turns.some((t) => t.streaming);

  const loadSessions = useCallback(async () => {
    try {
      const list = await api('/sessions');
      setSessions(list);
      // a conversation started elsewhere (another browser, the API) is named by its first
      // question, so that search finds it; a few histories at a time, the newest first
      const untitled = list.filter((s) => !s.title && !titleOf(me.username, s.session_id));
      for (let i = 0; i < untitled.length; i += TITLE_BATCH) {
        await Promise.all(untitled.slice(i, i + TITLE_BATCH).map(async (s) => {
          const hist = await api(`/chat/history/${enc(s.session_id)}`).catch(() => null);
          const first = hist?.turns?.[0]?.question;
          if (first) setTitle(me.username, s.session_id, first);
        }));
        setSessions([...list]);
      }
    } catch (err) { setError(err.message); }
  }, [me.username]);
  useEffect(() => { loadSessions(); }, [loadSessions]);
  // the newest turn in view, by scrolling the turns' own list (never the window)
  useEffect(() => { const el = scroller.current; if (el) el.scrollTop = el.scrollHeight; }, [turns]);

  const open = async (id) => {
    setShowList(false);
    setSource(null);
    setGraphOf(null);
    setError('');
    try {
      const hist = await api(`/chat/history/${enc(id)}`);
      setTurns(hist.turns.map(turnOfHistory));
      setCurrent(id);
    } catch (err) {
      setError(err.message);
    }
  };

  const fresh = () => {
    abort.current?.abort();
    setCurrent(null);
    setTurns([]);
    setSource(null);
    setGraphOf(null);
    setShowList(false);
  };

  const remove = async (id) => {
    if (!confirm('Delete this conversation and its history?')) return;
    try {
      await api(`/chat/history/${enc(id)}`, { method: 'DELETE' });
      setTitle(me.username, id, '');
      if (id === current) fresh();
      loadSessions();
    } catch (err) { setError(err.message); }
  };

  const update = (i, change) => setTurns((ts) => ts.map((t, j) => (j === i ? { ...t, ...change(t) } : t)));

  const ask = async (e) => {
    e.preventDefault();
    const text = question.trim();
    if (!text || streaming) return;
    setQuestion('');
    setError('');
    const i = turns.length;
    setTurns((ts) => [...ts, { question: text, answer: '', citations: [], streaming: true, status: 'Thinking…' }]);
    const controller = new AbortController();
    abort.current = controller;
    let session = current;
    try {
      const body = { message: text, session_id: current || undefined, collection: collection || undefined };
      for await (const { event, data } of events('/chat/stream', { method: 'POST', json: body, signal: controller.signal })) {
        if (event === 'status') update(i, () => ({ status: data.message }));
        else if (event === 'token') update(i, (t) => ({ answer: t.answer + data.text, status: '' }));
        else if (event === 'retraction') update(i, (t) => ({ answer: t.answer.replace(data.sentence, '').replace(/ {2,}/g, ' '), status: `withdrawn: ${data.reason}` }));
        else if (event === 'citation') update(i, (t) => ({ citations: [...t.citations.filter((c) => c.n !== data.n), data] }));
        else if (event === 'error') update(i, () => ({ error: data.error || 'the answer failed', streaming: false, status: '' }));
        else if (event === 'done') {
          session = data.session_id;
          update(i, (t) => ({
            answer: data.answer, intent: data.intent, confidence: data.confidence, grounded: data.grounded,
            kind: data.answer_kind, fallback: data.fallback,
            citations: mergeCitations(t.citations, data.citations), streaming: false, done: true, status: '',
          }));
        }
      }
      update(i, (t) => (t.streaming ? { streaming: false, status: '', error: t.error || 'the answer stream ended early' } : {}));
    } catch (err) {
      if (err.name === 'AbortError') update(i, () => ({ streaming: false, stopped: true, status: '' }));
      else update(i, () => ({ streaming: false, error: err.message, status: '' }));
    } finally {
      abort.current = null;
    }
    if (session && session !== current) {
      if (!titleOf(me.username, session)) setTitle(me.username, session, text);
      setCurrent(session);
    }
    loadSessions();
  };

  const stop = () => abort.current?.abort();

  return html`
    <div class=${`chat-layout ${source || graphOf ? 'with-source' : ''} ${showList ? 'list-open' : ''}`}>
      <aside class="sidebar" aria-label="Conversations">
        <${SessionList} user=${me.username} sessions=${sessions} current=${current}
          onSelect=${open} onNew=${fresh} onDelete=${remove} onRenamed=${loadSessions} />
      </aside>
      <section class="conversation" aria-label="Conversation">
        <button type="button" class="ghost list-toggle" onClick=${() => setShowList(!showList)}
          aria-expanded=${showList}>☰ Conversations</button>
        ${error && html`<p class="error" role="alert">${error}</p>`}
        <${CollectionNote} me=${me} collections=${collections} collection=${collection} />
        <ol class="turns" aria-live="polite" ref=${scroller}>
          ${!turns.length && html`<li class="hint">Ask a question about the documents in <strong>${collection || 'your collection'}</strong>. Answers cite the passages they come from.</li>`}
          ${turns.map((t, i) => html`<${TurnView} key=${i} turn=${t} onOpen=${(c) => { setGraphOf(null); setSource(c); }}
            onGraph=${(s) => { setSource(null); setGraphOf(s); }} />`)}
        </ol>
        <form class="composer" onSubmit=${ask}>
          <label class="sr-only" for="question">Your question</label>
          <textarea id="question" rows="2" value=${question} placeholder="Ask about your documents…"
            onInput=${(e) => setQuestion(e.target.value)}
            onKeyDown=${(e) => { if (e.key === 'Enter' && !e.shiftKey) ask(e); }}></textarea>
          ${streaming
            ? html`<button type="button" class="stop" onClick=${stop}>Stop generating</button>`
            : html`<button type="submit" class="primary" disabled=${!question.trim()}>Ask</button>`}
        </form>
      </section>
      ${source && html`<${SourcePanel} citation=${source} onClose=${() => setSource(null)} />`}
      ${graphOf && html`<${GraphPanel} source=${graphOf} onClose=${() => setGraphOf(null)}
        onOpen=${(c) => { setGraphOf(null); setSource(c); }} />`}
    </div>`;
}

function mergeCitations(streamed, final) {
  const byN = new Map(streamed.map((c) => [c.n, c]));
  return (final || []).map((c) => ({ ...byN.get(c.n), ...c, boxes: c.boxes?.length ? c.boxes : byN.get(c.n)?.boxes }));
}

function TurnView({ turn, onOpen, onGraph }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    setCopied(await copyToClipboard(copyText(turn)));
    setTimeout(() => setCopied(false), 1500);
  };
  return html`
    <li class="turn">
      <p class="question"><span class="sr-only">You asked: </span>${turn.question}</p>
      <article class=${`answer ${turn.streaming ? 'streaming' : ''}`} aria-busy=${turn.streaming ? 'true' : 'false'}>
        ${turn.status && html`<p class="status" role="status"><span class="spinner" aria-hidden="true"></span>${turn.status}</p>`}
        <${AnswerText} text=${turn.answer} citations=${turn.citations} onOpen=${onOpen} />
        ${turn.error && html`<p class="error" role="alert">${turn.error}</p>`}
        ${turn.stopped && html`<p class="note">Stopped.</p>`}
        <${Verdict} turn=${turn} />
        ${turn.citations.length > 0 && html`
          <ol class="sources" aria-label="Sources">
            ${[...turn.citations].sort((a, b) => a.n - b.n).map((c) => html`
              <li key=${c.n}><button type="button" class="source-link" onClick=${() => onOpen(c)}>
                [${c.n}] ${fileName(citedWhere(c).source)}${c.page ? `, page ${c.page}` : ''}</button>
                ${citedWhere(c).section && html`<span class="section"> — ${citedWhere(c).section}</span>`}
                <button type="button" class="ghost small graph-link" onClick=${() => onGraph(c.source)}
                  aria-label=${`Graph around ${c.source}`}>graph</button></li>`)}
          </ol>`}
        ${!turn.streaming && turn.answer && html`
          <button type="button" class="ghost small copy" onClick=${copy}>${copied ? 'Copied' : 'Copy answer with sources'}</button>`}
      </article>
    </li>`;
}
