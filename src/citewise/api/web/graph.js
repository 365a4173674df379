// The knowledge graph beside the chat: a document's neighbourhood (the documents it cites or
// shares names with, the entities it names) drawn with cytoscape, which is loaded only when a
// graph is first opened. Click a document to move to its neighbourhood, an entity for its
// card: aliases, relations with the passages behind them, the documents that name it.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { fileName, html } from './html.js';

const baseName = (source) => String(source).split('/').pop();

let cytoscapeReady = null;
function loadCytoscape() {
  if (!cytoscapeReady) {
    cytoscapeReady = import('/ui/vendor/cytoscape.mjs').then((m) => m.default);
    cytoscapeReady.catch(() => { cytoscapeReady = null; });
  }
  return cytoscapeReady;
}

const MAX_ENTITIES = 14; // the document's most shared names: a readable picture, not all of it

// The elements around `source` in an exported graph ({nodes, edges}); null when not in it.
export function neighbourhood(graph, source) {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const doc = graph.nodes.find((n) => n.type === 'document' && n.source === source);
  if (!doc) return null;
  const links = graph.edges.filter((e) => e.type === 'document_link' && (e.source === doc.id || e.target === doc.id));
  const docs = new Set([doc.id, ...links.map((e) => (e.source === doc.id ? e.target : e.source))]);
  const entities = graph.edges
    .filter((e) => e.type === 'mentions' && e.source === doc.id)
    .map((e) => byId.get(e.target))
    .filter(Boolean)
    .sort((a, b) => b.documents.length - a.documents.length || a.label.localeCompare(b.label))
    .slice(0, MAX_ENTITIES);
  const shown = new Set([...docs, ...entities.map((e) => e.id)]);
  const nodes = [...docs].map((id) => byId.get(id)).filter(Boolean).concat(entities);
  const edges = graph.edges.filter((e) => shown.has(e.source) && shown.has(e.target)
    && (e.type !== 'relation' || e.kind !== 'mentions_with'));
  return {
    center: doc.id,
    elements: [
      ...nodes.map((n) => ({
        data: { id: n.id, label: n.type === 'document' ? baseName(n.source) : n.label, type: n.type,
          source: n.source || '', name: n.label, center: n.id === doc.id ? 'yes' : 'no' },
      })),
      ...edges.map((e, i) => ({
        data: { id: `e${i}`, source: e.source, target: e.target, type: e.type, label: e.kind || '' },
      })),
    ],
  };
}

const STYLE = [
  { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'text-valign': 'bottom', 'text-margin-y': 3, color: '#444', width: 14, height: 14, 'background-color': '#7d8fb3' } },
  { selector: 'node[type = "document"]', style: { shape: 'round-rectangle', width: 22, height: 16, 'background-color': '#d38b2c' } },
  { selector: 'node[center = "yes"]', style: { 'border-width': 3, 'border-color': '#7a4a0c', width: 28, height: 20 } },
  { selector: 'edge', style: { width: 1, 'line-color': '#c3c8d2', 'curve-style': 'bezier' } },
  { selector: 'edge[type = "document_link"]', style: { width: 3, 'line-color': '#d38b2c', label: 'data(label)', 'font-size': 8 } },
  { selector: 'edge[type = "relation"]', style: { width: 2, 'line-color': '#5a6f9c', 'target-arrow-shape': 'triangle', 'target-arrow-color': '#5a6f9c', label: 'data(label)', 'font-size': 8 } },
];

export function GraphPanel({ source, onClose }) {
  const [at, setAt] = useState(source);
  const [graph, setGraph] = useState(null);
  const [entity, setEntity] = useState(null);
  const [error, setError] = useState('');
  const box = useRef(null);
  const closeRef = useRef(null);

  useEffect(() => { setAt(source); setEntity(null); }, [source]);
  useEffect(() => {
    closeRef.current?.focus();
    api('/graph/export?format=json').then(setGraph).catch((err) => setError(err.message));
  }, []);
  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const around = graph && neighbourhood(graph, at);
  useEffect(() => {
    if (!around || !box.current) return undefined;
    let cy = null;
    let gone = false;
    loadCytoscape().then((cytoscape) => {
      if (gone) return;
      cy = cytoscape({ container: box.current, elements: around.elements, style: STYLE,
        layout: { name: 'breadthfirst', roots: [around.center], circle: true, spacingFactor: 1.1, fit: true, padding: 24, animate: false } });
      cy.on('tap', 'node', (e) => {
        const d = e.target.data();
        if (d.type === 'document') { setAt(d.source); setEntity(null); } else openEntity(d.name);
      });
      box.current.dataset.nodes = String(cy.nodes().length);
    }).catch((err) => setError(`the graph view could not load: ${err.message}`));
    return () => { gone = true; cy?.destroy(); };
  }, [graph, at]);

  function openEntity(name) {
    api(`/graph/entities/${enc(name)}`).then(setEntity).catch((err) => setError(err.message));
  }

  return html`
    <aside class="source-panel graph-panel" aria-label="Knowledge graph">
      <header>
        <h2>Graph: ${fileName(at)}</h2>
        <button type="button" class="ghost" ref=${closeRef} onClick=${onClose} aria-label="Close the graph">✕</button>
      </header>
      ${error && html`<p class="error" role="alert">${error}</p>`}
      ${graph && !around && html`<p class="note">${at} has no graph yet (it is built when a document is ingested).</p>`}
      ${around && html`
        <p class="where">Documents it cites or shares names with, and the names it mentions. Click a document to move there, a name for its card.</p>
        <div class="graph-canvas" ref=${box} role="img" aria-label=${`Graph around ${at}`}></div>
        <ul class="graph-names" aria-label="Names in this document">
          ${around.elements.filter((e) => e.data.type === 'entity').map((e) => html`
            <li key=${e.data.id}><button type="button" class="ghost small" onClick=${() => openEntity(e.data.name)}>${e.data.name}</button></li>`)}
        </ul>`}
      ${entity && html`<${EntityCard} entity=${entity} onDocument=${(s) => { setAt(s); setEntity(null); }} />`}
    </aside>`;
}

function EntityCard({ entity, onDocument }) {
  const relations = entity.relations.filter((r) => r.kind !== 'mentions_with');
  return html`
    <section class="entity-card" aria-label=${`Entity ${entity.name}`}>
      <h3>${entity.name} <span class="kind">${entity.kind}</span></h3>
      ${entity.aliases.length > 0 && html`<p class="where">also: ${entity.aliases.join(', ')}</p>`}
      ${relations.length > 0 && html`
        <ul class="relations">
          ${relations.map((r, i) => html`<li key=${i}><strong>${r.source}</strong> ${r.kind.replace(/_/g, ' ')} <strong>${r.target}</strong>
            ${r.evidence.slice(0, 1).map((ev) => html`<q>${ev.quote}</q> <span class="where">${ev.source}</span>`)}</li>`)}
        </ul>`}
      <p class="where">Named in:</p>
      <ul class="documents">
        ${entity.documents.map((d) => html`<li key=${d.doc_id}><button type="button" class="source-link" onClick=${() => onDocument(d.source)}>${fileName(d.source)}</button></li>`)}
      </ul>
    </section>`;
}
