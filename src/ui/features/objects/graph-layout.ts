// Layered left-to-right placement of the object graph (dagre). Called only when the graph's signature changes.
import dagre from '@dagrejs/dagre';
import type { ObjectGraph } from './object-graph';

export const nodeWidth = 190;
export const nodeHeight = 58;

export type Positions = ReadonlyMap<string, { x: number; y: number }>;

/** Top-left positions of every node, owners to the left of their dependents. */
export function layoutObjectGraph(graph: Pick<ObjectGraph, 'nodes' | 'edges'>): Positions {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 18, ranksep: 70, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: nodeWidth, height: nodeHeight });
  for (const e of graph.edges) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const positions = new Map<string, { x: number; y: number }>();
  for (const n of graph.nodes) {
    const p = g.node(n.id);
    positions.set(n.id, { x: p.x - nodeWidth / 2, y: p.y - nodeHeight / 2 });
  }
  return positions;
}
