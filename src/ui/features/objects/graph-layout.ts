// Placement of the object graph in layers, left to right, one layer per kind column (graphColumns).
// A fresh layout (first view of a namespace, or "Tidy layout") is dagre's, with every node put in its column.
// After that the layout is incremental: a node that stays keeps its position, a new one goes to the nearest free
// slot beside its owner (or what it links to), a removed one leaves a hole, so nothing jumps while pods churn.
import dagre from '@dagrejs/dagre';

export const nodeWidth = 200;
export const nodeHeight = 60;
const nodeGap = 16;
const layerGap = 70;
const margin = 10;
/** Vertical distance between two slots of a column. */
export const rowStep = nodeHeight + nodeGap;
/** Horizontal distance between two columns. */
export const columnStep = nodeWidth + layerGap;

export interface LayoutNode {
  id: string;
  column: number;
}

export interface LayoutEdge {
  source: string;
  target: string;
  /** Owner edges anchor a new node before any other kind. */
  kind?: string;
}

export interface Point {
  x: number;
  y: number;
}

export type Positions = ReadonlyMap<string, Point>;

export function columnX(column: number): number {
  return margin + column * columnStep;
}

/**
 * Top-left positions of every node. With `previous` positions that any of the nodes still has, placement is
 * incremental; otherwise (or with none) it is a fresh layered layout.
 */
export function layoutObjectGraph(graph: { nodes: readonly LayoutNode[]; edges: readonly LayoutEdge[] }, previous?: Positions): Map<string, Point> {
  if (previous && graph.nodes.some((n) => previous.has(n.id))) return placeIncrementally(previous, graph.nodes, graph.edges);
  return layoutFresh(graph.nodes, graph.edges);
}

/**
 * dagre's layered layout (crossing reduction, compact rows), then each node moved to its kind's column; where
 * nodes dagre ranked differently land in one column, the later ones slide down just enough not to overlap.
 */
export function layoutFresh(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Map<string, Point> {
  const positions = new Map<string, Point>();
  if (nodes.length === 0) return positions;
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: nodeGap, ranksep: layerGap, marginx: margin, marginy: margin });
  g.setDefaultEdgeLabel(() => ({}));
  const columns = new Map(nodes.map((n) => [n.id, n.column]));
  for (const n of nodes) g.setNode(n.id, { width: nodeWidth, height: nodeHeight });
  // Only edges that go rightwards take part, spanning their columns; the others (a mirror pod's Node owner)
  // are drawn but do not rank.
  for (const e of edges) {
    const from = columns.get(e.source);
    const to = columns.get(e.target);
    if (from === undefined || to === undefined || from >= to) continue;
    g.setEdge(e.source, e.target, { minlen: to - from, weight: 1 });
  }
  dagre.layout(g);
  const byColumn = new Map<number, { id: string; y: number }[]>();
  for (const n of nodes) {
    const list = byColumn.get(n.column) ?? [];
    list.push({ id: n.id, y: g.node(n.id).y - nodeHeight / 2 });
    byColumn.set(n.column, list);
  }
  let top = Infinity;
  for (const list of byColumn.values()) {
    list.sort((a, b) => a.y - b.y || (a.id < b.id ? -1 : 1));
    for (let i = 1; i < list.length; i++) list[i].y = Math.max(list[i].y, list[i - 1].y + rowStep);
    top = Math.min(top, list[0].y);
  }
  for (const [column, list] of byColumn) for (const { id, y } of list) positions.set(id, { x: columnX(column), y: y - top + margin });
  return positions;
}

const anchorOrder: Record<string, number> = { owns: 0, selects: 1 };

/**
 * Keeps every previous position of a node still in the graph and places the new ones, owners first: at the
 * nearest free slot of their column to their owner's row (else to any node linking to them, else to what they
 * link to), or below the column's last node.
 */
export function placeIncrementally(previous: Positions, nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Map<string, Point> {
  const positions = new Map<string, Point>();
  const rows = new Map<number, number[]>();
  const occupy = (column: number, y: number) => {
    let list = rows.get(column);
    if (!list) rows.set(column, (list = []));
    list.push(y);
  };
  for (const n of nodes) {
    const p = previous.get(n.id);
    if (!p) continue;
    positions.set(n.id, p);
    occupy(n.column, p.y);
  }
  const parents = new Map<string, LayoutEdge[]>();
  const children = new Map<string, string[]>();
  for (const e of edges) {
    parents.set(e.target, [...(parents.get(e.target) ?? []), e]);
    children.set(e.source, [...(children.get(e.source) ?? []), e.target]);
  }
  const fresh = nodes.filter((n) => !positions.has(n.id)).sort((a, b) => a.column - b.column || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const n of fresh) {
    const y = anchorRow(n.id, parents, children, positions);
    const taken = rows.get(n.column) ?? [];
    const row = y === undefined ? (taken.length ? Math.max(...taken) + rowStep : margin) : nearestFree(taken, y);
    positions.set(n.id, { x: columnX(n.column), y: row });
    occupy(n.column, row);
  }
  return positions;
}

function anchorRow(id: string, parents: ReadonlyMap<string, LayoutEdge[]>, children: ReadonlyMap<string, string[]>, placed: Positions): number | undefined {
  const incoming = [...(parents.get(id) ?? [])].sort((a, b) => (anchorOrder[a.kind ?? ''] ?? 2) - (anchorOrder[b.kind ?? ''] ?? 2));
  for (const e of incoming) {
    const p = placed.get(e.source);
    if (p) return p.y;
  }
  const linked = (children.get(id) ?? []).map((c) => placed.get(c)?.y).filter((y): y is number => y !== undefined);
  return linked.length ? linked.reduce((a, b) => a + b, 0) / linked.length : undefined;
}

/** The slot closest to `y` (y, then one row below, one above, two below, …) that overlaps no taken row. */
function nearestFree(taken: readonly number[], y: number): number {
  const free = (candidate: number) => taken.every((t) => Math.abs(t - candidate) >= rowStep - 0.5);
  for (let k = 0; ; k++) {
    if (free(y + k * rowStep)) return y + k * rowStep;
    if (k > 0 && free(y - k * rowStep)) return y - k * rowStep;
  }
}
