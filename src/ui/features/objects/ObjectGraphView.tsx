// The Objects graph: the workload objects of a namespace (or all) as React Flow nodes in kind columns, laid out
// incrementally so nodes that stay never move; new ones grow in beside their owner, removed ones fade out where
// they were. React Flow's lists are rebuilt only when the structure changes, never for a status change.
import { Background, Controls, Position, ReactFlow, ViewportPortal, useReactFlow } from '@xyflow/react';
import type { Edge, NodeHandle } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useRef } from 'react';
import { selectEffectiveDark, selectSelectedObject } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { makeSelectObjectGraph, selectNamespaceNames } from './graph-selectors';
import type { Positions } from './graph-layout';
import { layoutObjectGraph, nodeHeight, nodeWidth } from './graph-layout';
import type { GraphFlowNode } from './GraphNodes';
import { graphNodeTypes } from './GraphNodes';
import type { ObjectGraphEdge, ObjectGraphNode } from './object-graph';
import { AllNamespaces, objectTitle, parseLeafGroupId } from './object-graph';
import { useObjectsView } from './objects-view-state';
import { usePresence } from './use-presence';
import { TrafficTokens } from '../traffic/TrafficTokens';
import { trafficUi } from '../traffic/traffic-state';
import { trafficKinds } from '../traffic/traffic-target';

const fitViewOptions = { padding: 0.1, maxZoom: 1 };
const handles: NodeHandle[] = [
  { type: 'target', position: Position.Left, x: 0, y: nodeHeight / 2, width: 1, height: 1 },
  { type: 'source', position: Position.Right, x: nodeWidth - 1, y: nodeHeight / 2, width: 1, height: 1 },
];
const nodeKey = (n: ObjectGraphNode) => n.id;
const edgeKey = (e: ObjectGraphEdge) => e.id;

/** "Edge: Deployment nginx owns ReplicaSet nginx-5d4f" (the prefix keeps it apart from the nodes' names). */
export function graphEdgeLabel(source: string, kind: string, target: string): string {
  return `Edge: ${source} ${kind} ${target}`;
}

/** "Object graph of namespace default" / "Object graph of all namespaces": the canvas region's name. */
export function graphRegionLabel(namespace: string): string {
  return namespace === AllNamespaces ? 'Object graph of all namespaces' : `Object graph of namespace ${namespace}`;
}

interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function boundsOf(positions: Positions): Bounds | undefined {
  let b: Bounds | undefined;
  for (const p of positions.values()) {
    b = b
      ? { left: Math.min(b.left, p.x), top: Math.min(b.top, p.y), right: Math.max(b.right, p.x + nodeWidth), bottom: Math.max(b.bottom, p.y + nodeHeight) }
      : { left: p.x, top: p.y, right: p.x + nodeWidth, bottom: p.y + nodeHeight };
  }
  return b;
}

const contains = (outer: Bounds, inner: Bounds) => inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right && inner.bottom <= outer.bottom;

/**
 * Keeps everything in view as the graph grows (animated), unless the user has panned or zoomed; never zooms in
 * because something left, and re-fits after "Tidy layout".
 */
function AutoFit({ bounds, generation, userMoved }: { bounds: Bounds | undefined; generation: number; userMoved: { current: boolean } }) {
  const { fitView } = useReactFlow();
  const fitted = useRef<Bounds | undefined>(undefined);
  const lastGeneration = useRef(generation);
  useEffect(() => {
    if (!bounds) return;
    const tidied = generation !== lastGeneration.current;
    lastGeneration.current = generation;
    if (tidied) userMoved.current = false;
    if (userMoved.current || (fitted.current && !tidied && contains(fitted.current, bounds))) return;
    fitted.current = bounds;
    void fitView({ ...fitViewOptions, duration: 300 });
  }, [bounds, generation, fitView, userMoved]);
  return null;
}

export const ObjectGraphView = memo(function ObjectGraphView() {
  const namespace = useObjectsView((s) => s.namespace);
  const setNamespace = useObjectsView((s) => s.setNamespace);
  const expanded = useObjectsView((s) => s.expanded);
  const generation = useObjectsView((s) => s.layoutGeneration);
  const tidyLayout = useObjectsView((s) => s.tidyLayout);
  const namespaces = useAppStore(selectNamespaceNames);
  const dark = useAppStore(selectEffectiveDark);
  const toggleExpanded = useObjectsView((s) => s.toggleExpanded);
  return (
    <div className="object-graph">
      <div className="graph-toolbar">
        <label className="inline-label graph-namespace">
          Namespace{' '}
          <select value={namespace} onChange={(e) => setNamespace(e.target.value)}>
            <option value={AllNamespaces}>All namespaces</option>
            {(namespace === AllNamespaces || namespaces.includes(namespace) ? namespaces : [...namespaces, namespace]).map((ns) => (
              <option key={ns} value={ns}>
                {ns}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="small graph-tool" onClick={tidyLayout}>
          Tidy layout
        </button>
        <button
          type="button"
          className="small graph-tool"
          onClick={() => {
            const selected = selectSelectedObject(appStore.getState());
            trafficUi.getState().openFor(selected && trafficKinds.has(selected.kind) ? selected : undefined);
          }}
        >
          Send traffic
        </button>
        {/* Leaf groups shown one by one have no node of their own to fold them back: the toolbar offers it. */}
        {[...expanded]
          .map((id) => [id, parseLeafGroupId(id)] as const)
          .filter(([, group]) => group && (namespace === AllNamespaces || group.namespace === namespace))
          .map(([id, group]) => (
            <button key={id} type="button" className="small graph-tool" onClick={() => toggleExpanded(id)}>
              Group the {group!.kind}s in {group!.namespace}
            </button>
          ))}
      </div>
      <div className="object-graph-canvas" aria-label={graphRegionLabel(namespace)} role="region">
        {/* A namespace is its own graph: a fresh layout and viewport. */}
        <GraphCanvas key={namespace} namespace={namespace} expanded={expanded} generation={generation} dark={dark} />
      </div>
    </div>
  );
});

/** The last layout of each namespace, so coming back to the tab finds every node where it was. */
const savedLayouts = new Map<string, { generation: number; positions: Positions }>();

interface CanvasProps {
  namespace: string;
  expanded: ReadonlySet<string>;
  generation: number;
  dark: boolean;
}

const GraphCanvas = memo(function GraphCanvas({ namespace, expanded, generation, dark }: CanvasProps) {
  const withNamespace = namespace === AllNamespaces;
  const selectGraph = useMemo(() => makeSelectObjectGraph(namespace, expanded), [namespace, expanded]);
  const graph = useAppStore(selectGraph);
  const nodePresence = usePresence(graph.nodes, nodeKey);
  const edgePresence = usePresence(graph.edges, edgeKey);

  // Positions survive every structural change, and switching tabs; a new generation ("Tidy layout") starts over.
  const positions = useMemo(() => {
    const saved = savedLayouts.get(namespace);
    const previous = saved?.generation === generation ? saved.positions : undefined;
    const laidOut = layoutObjectGraph({ nodes: [...nodePresence.values()].map((p) => p.item), edges: graph.edges }, previous);
    savedLayouts.set(namespace, { generation, positions: laidOut });
    return laidOut;
  }, [nodePresence, graph.edges, generation, namespace]);

  // One React Flow node object per id, reused while nothing it carries changed (React Flow skips those).
  const flowCache = useRef(new Map<string, GraphFlowNode>());
  const nodes = useMemo(() => {
    const next = new Map<string, GraphFlowNode>();
    for (const p of nodePresence.values()) {
      const position = positions.get(p.key)!;
      const leaving = p.leavingSince !== undefined;
      const cached = flowCache.current.get(p.key);
      const reuse = cached && cached.position === position && cached.data.node === p.item && cached.data.leaving === leaving && cached.data.withNamespace === withNamespace;
      next.set(
        p.key,
        reuse
          ? cached
          : {
              id: p.key,
              type: p.item.type,
              position,
              width: nodeWidth,
              height: nodeHeight,
              // Known handle places let edges draw before React Flow has measured the nodes.
              handles,
              data: { node: p.item, leaving, withNamespace },
              draggable: false,
              connectable: false,
              selectable: false,
              focusable: false,
              className: leaving ? 'leaving' : undefined,
            },
      );
    }
    flowCache.current = next;
    return [...next.values()];
  }, [nodePresence, positions, withNamespace]);

  const edges = useMemo(() => {
    const byId = new Map([...nodePresence.values()].map((p) => [p.key, p.item]));
    const list: Edge[] = [];
    for (const p of edgePresence.values()) {
      const e = p.item;
      const source = byId.get(e.source);
      const target = byId.get(e.target);
      if (!source || !target) continue;
      list.push({
        id: e.id,
        source: e.source,
        target: e.target,
        className: `graph-edge graph-edge-${e.kind.replace(/ /g, '-')}${p.leavingSince !== undefined ? ' leaving' : ''}`,
        ariaLabel: graphEdgeLabel(objectTitle(source, withNamespace), e.kind, objectTitle(target, withNamespace)),
        focusable: false,
        selectable: false,
      });
    }
    return list;
  }, [edgePresence, nodePresence, withNamespace]);

  const bounds = useMemo(() => boundsOf(positions), [positions]);
  const userMoved = useRef(false);

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={graphNodeTypes}
      panActivationKeyCode={null}
      deleteKeyCode={null}
      nodesConnectable={false}
      nodesDraggable={false}
      nodesFocusable={false}
      edgesFocusable={false}
      elementsSelectable={false}
      onMoveStart={(event) => {
        if (event) userMoved.current = true;
      }}
      colorMode={dark ? 'dark' : 'light'}
      fitView
      fitViewOptions={fitViewOptions}
      minZoom={0.1}
      proOptions={{ hideAttribution: true }}
    >
      <AutoFit bounds={bounds} generation={generation} userMoved={userMoved} />
      <Background />
      <Controls showInteractive={false} />
      <ViewportPortal>
        <TrafficTokens nodes={graph.nodes} positions={positions} />
      </ViewportPortal>
    </ReactFlow>
  );
});
