// The knowledge graph beside the chat as an ego view: one document or entity and its strongest
// neighbours (the server caps them), drawn with cytoscape (loaded when a graph first opens).
// Kinds are colours with a legend that filters them; labels sit beside their nodes in columns,
// so they never overlap; edges carry no labels unless asked. Click a node to centre on it, an
// entity for its card, whose evidence sentences open the passage they come from.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { fileName, html } from './html.js';

let cytoscapeReady = null;
function loadCytoscape() {
  if (!cytoscapeReady) {
    cytoscapeReady = import('/ui/vendor/cytoscape.mjs').then((m) => m.default);
    cytoscapeReady.catch(() => { cytoscapeReady = null; });
  }
  return cytoscapeReady;
}

export const KIND_COLOURS = {
  document: '#d38b2c', name: '#4e79a7', product: '#2f8f5b', acronym: '#3f9c9a', term: '#9b5fa0',
  party: '#d1495b', agreement: '#8c6239', code: '#6b6b6b', configuration: '#8a8f3a',
  command: '#e0701b', software: '#b08d00', path: '#4c9a2a', option: '#5b8fc7', concept: '#c75f8f',
  hardware: '#468c8c', error: '#b33a3a', section: '#999999',
};
const ROW = 24; // px between two labels in a column: at font 12 they cannot touch
const LABEL_CHARS = 30;
const NARROW = 560; // px: one column of neighbours below this width

const short = (s) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

// Preset positions: the centre, documents in the left column and names in the right one
// (one column on a narrow panel), each column sorted by kind so colours group.
export function egoLayout(view, hidden, narrow) {
  const shown = view.nodes.filter((n) => n.center || !hidden.has(n.kind));
  const ids = new Set(shown.map((n) => n.id));
  const centre = shown.find((n) => n.center);
  const others = shown.filter((n) => !n.center)
    .sort((a, b) => (a.type === b.type ? 0 : a.type === 'document' ? -1 : 1) || a.kind.localeCompare(b.kind) || a.label.localeCompare(b.label));
  let left = narrow ? [] : others.filter((n) => n.type === 'document');
  let right = others.filter((n) => !left.includes(n));
  if (!narrow && (left.length === 0 || right.length === 0)) { // one kind only: split it in two
    const half = Math.ceil(others.length / 2);
    [left, right] = [others.slice(0, half), others.slice(half)];
  }
  const gap = narrow ? 90 : 150;
  const place = (column, x, side) => column.map((n, i) => ({
    data: { id: n.id, label: short(n.label), kind: n.kind, side, colour: KIND_COLOURS[n.kind] || '#888', type: n.type },
    position: { x, y: (i - (column.length - 1) / 2) * ROW },
  }));
  const nodes = [
    { data: { id: centre.id, label: short(centre.label), kind: centre.kind, side: 'below', colour: KIND_COLOURS[centre.kind] || '#888', type: centre.type, center: 'yes' }, position: { x: 0, y: 0 } },
    ...place(left, -gap, 'left'), ...place(right, gap, 'right'),
  ];
  const edges = view.edges.filter((e) => ids.has(e.source) && ids.has(e.target)).map((e, i) => ({
    data: { id: `e${i}`, source: e.source, target: e.target, kind: e.kind, label: e.kind.replace(/_/g, ' '),
      weak: e.weak || e.kind === 'mentions_with' ? 'yes' : 'no', around: e.source === centre.id || e.target === centre.id ? 'yes' : 'no',
      width: 1 + 2 * Math.min(1, Number(e.weight) || 0) },
  }));
  return { elements: [...nodes, ...edges], rows: Math.max(left.length, right.length, 1) };
}

const STYLE = (labels) => [
  { selector: 'node', style: { label: 'data(label)', 'font-size': 12, color: '#222', 'text-valign': 'center', width: 12, height: 12,
    'background-color': 'data(colour)', 'text-background-color': '#fff', 'text-background-opacity': 0.85, 'text-background-padding': 1 } },
  { selector: 'node[side = "right"]', style: { 'text-halign': 'right', 'text-margin-x': 6 } },
  { selector: 'node[side = "left"]', style: { 'text-halign': 'left', 'text-margin-x': -6 } },
  { selector: 'node[side = "below"]', style: { 'text-valign': 'bottom', 'text-margin-y': 6, 'font-weight': 'bold' } },
  { selector: 'node[type = "document"]', style: { shape: 'round-rectangle', width: 16 } },
  { selector: 'node[center = "yes"]', style: { width: 22, height: 22, 'border-width': 3, 'border-color': '#333' } },
  { selector: 'edge', style: { width: 'data(width)', 'line-color': '#b9c0cc', 'curve-style': 'bezier', opacity: 0.8 } },
  { selector: 'edge[around = "no"]', style: { 'line-color': '#7d8fb3', opacity: 0.45, 'curve-style': 'unbundled-bezier', 'control-point-distances': 40 } },
  { selector: 'edge[weak = "yes"]', style: { 'line-style': 'dashed', opacity: 0.35 } },
  ...(labels ? [{ selector: 'edge', style: { label: 'data(label)', 'font-size': 9, color: '#555', 'text-rotation': 'autorotate' } }] : []),
];

export function GraphPanel({ source, onClose, onOpen }) {
  const [at, setAt] = useState({ document: source });
  const [trail, setTrail] = useState([]);
  const [view, setView] = useState(null);
  const [entity, setEntity] = useState(null);
  const [hidden, setHidden] = useState(new Set());
  const [edgeLabels, setEdgeLabels] = useState(false);
  const [error, setError] = useState('');
  const box = useRef(null);
  const closeRef = useRef(null);

  useEffect(() => { setAt({ document: source }); setTrail([]); setEntity(null); }, [source]);
  useEffect(() => { closeRef.current?.focus(); }, []);
  useEffect(() => {
    const onKey = (e) => { if (e.key === 'Escape') onClose(); };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  useEffect(() => {
    setView(null);
    setError('');
    const query = at.entity ? `entity=${enc(at.entity)}` : `document=${enc(at.document)}`;
    api(`/graph/ego?${query}`).then(setView).catch((err) => setError(err.message));
    if (at.entity) api(`/graph/entities/${enc(at.entity)}`).then(setEntity).catch(() => setEntity(null));
  }, [at]);

  useEffect(() => {
    if (!view || !box.current) return undefined;
    let cy = null;
    let gone = false;
    const narrow = box.current.clientWidth < NARROW;
    const { elements, rows } = egoLayout(view, hidden, narrow);
    box.current.style.height = `${Math.max(260, rows * ROW + 80)}px`;
    loadCytoscape().then((cytoscape) => {
      if (gone) return;
      cy = cytoscape({ container: box.current, elements, style: STYLE(edgeLabels), layout: { name: 'preset', padding: 16 },
        userZoomingEnabled: false, boxSelectionEnabled: false, autoungrabify: true });
      // full size when the picture fits (the canvas is as tall as its longest column), else
      // scaled to the canvas's width
      cy.zoom(1);
      cy.center();
      if (cy.elements().renderedBoundingBox().w > box.current.clientWidth - 24) cy.fit(undefined, 12);
      cy.on('tap', 'node', (e) => go(view.nodes.find((n) => n.id === e.target.id())));
      // where each node and its label were drawn: the browser test checks that none overlap
      box.current.dataset.boxes = JSON.stringify(cy.nodes().map((n) => {
        const b = n.renderedBoundingBox({ includeLabels: true, includeOverlays: false });
        return [b.x1, b.y1, b.x2, b.y2];
      }));
      box.current.dataset.nodes = String(cy.nodes().length);
    }).catch((err) => setError(`the graph view could not load: ${err.message}`));
    return () => { gone = true; cy?.destroy(); };
  }, [view, hidden, edgeLabels]);

  function go(node) {
    if (!node || node.center) return;
    setTrail([...trail, at]);
    if (node.type === 'document') { setEntity(null); setAt({ document: node.source }); } else setAt({ entity: node.label });
  }
  function back() { setAt(trail[trail.length - 1]); setTrail(trail.slice(0, -1)); if (!trail[trail.length - 1].entity) setEntity(null); }
  function toggle(kind) { const next = new Set(hidden); next.has(kind) ? next.delete(kind) : next.add(kind); setHidden(next); }

  const centre = view?.nodes.find((n) => n.center);
  const kinds = view ? [...new Set(view.nodes.filter((n) => !n.center).map((n) => n.kind))].sort() : [];
  const neighbours = view ? view.nodes.filter((n) => !n.center && !hidden.has(n.kind)) : [];
  return html`
    <aside class="source-panel graph-panel" aria-label="Knowledge graph">
      <header>
        <h2>Graph: ${fileName(at.entity || at.document)}</h2>
        ${trail.length > 0 && html`<button type="button" class="ghost small" onClick=${back}>← Back</button>`}
        <button type="button" class="ghost" ref=${closeRef} onClick=${onClose} aria-label="Close the graph">✕</button>
      </header>
      ${error && html`<p class="error" role="alert">${at.document ? `${at.document} has no graph yet (it is built when a document is ingested).` : error}</p>`}
      ${view && html`
        <p class="where">${centre.type === 'document' ? 'Documents it cites or shares names with, and the names it is most about.' : 'What it is related to, and the documents naming it.'} Click one to centre on it.${view.hidden > 0 ? ` ${view.hidden} more not shown.` : ''}</p>
        <ul class="graph-legend" aria-label="Kinds shown">
          ${kinds.map((k) => html`<li key=${k}><label class="check"><input type="checkbox" checked=${!hidden.has(k)} onChange=${() => toggle(k)} />
            <span class="swatch" style=${`background:${KIND_COLOURS[k] || '#888'}`}></span>${k}</label></li>`)}
          <li><label class="check"><input type="checkbox" checked=${edgeLabels} onChange=${() => setEdgeLabels(!edgeLabels)} /> relation names</label></li>
        </ul>
        <div class="graph-canvas" ref=${box} role="img" aria-label=${`Graph around ${centre.label}`}></div>
        <ul class="graph-names" aria-label="Neighbours">
          ${neighbours.map((n) => html`<li key=${n.id}><button type="button" class="ghost small" onClick=${() => go(n)}>
            <span class="swatch" style=${`background:${KIND_COLOURS[n.kind] || '#888'}`}></span>${n.label}</button></li>`)}
        </ul>
        ${centre.type === 'document' && html`<${Links} view=${view} />`}`}
      ${entity && at.entity && html`<${EntityCard} entity=${entity} onDocument=${(s) => go({ type: 'document', source: s })} onOpen=${onOpen} />`}
    </aside>`;
}

function Links({ view }) {
  const byId = new Map(view.nodes.map((n) => [n.id, n]));
  const links = view.edges.filter((e) => e.reason);
  if (!links.length) return null;
  return html`
    <ul class="graph-links" aria-label="Linked documents">
      ${links.map((e) => html`<li key=${e.target}><strong>${byId.get(e.target)?.label}</strong> <span class="where">${e.reason}</span></li>`)}
    </ul>`;
}

function EntityCard({ entity, onDocument, onOpen }) {
  const typed = entity.relations.filter((r) => r.kind !== 'mentions_with');
  const weak = entity.relations.filter((r) => r.kind === 'mentions_with');
  const open = (ev) => onOpen?.({ n: '↗', chunk_id: ev.chunk_id, source: ev.source, quote: ev.quote, section: ev.section });
  const relation = (r, i) => html`<li key=${i}><strong>${r.source}</strong> ${r.kind.replace(/_/g, ' ')} <strong>${r.target}</strong>
    ${r.evidence.slice(0, 1).map((ev) => html`<button type="button" class="evidence" onClick=${() => open(ev)} title="Open the passage" aria-label=${`Open the passage: ${ev.quote}`}><q>${ev.quote}</q> <span class="where">${ev.source}</span></button>`)}</li>`;
  return html`
    <section class="entity-card" aria-label=${`Entity ${entity.name}`}>
      <h3>${entity.name} <span class="kind">${entity.kind}</span></h3>
      ${entity.aliases.length > 0 && html`<p class="where">also: ${entity.aliases.join(', ')}</p>`}
      ${typed.length > 0 && html`<ul class="relations">${typed.map(relation)}</ul>`}
      ${weak.length > 0 && html`<details><summary>Mentioned beside (${weak.length})</summary><ul class="relations weak">${weak.map(relation)}</ul></details>`}
      <p class="where">Named in:</p>
      <ul class="documents">
        ${entity.documents.map((d) => html`<li key=${d.doc_id}><button type="button" class="source-link" onClick=${() => onDocument(d.source)}>${fileName(d.source)}</button></li>`)}
      </ul>
    </section>`;
}
