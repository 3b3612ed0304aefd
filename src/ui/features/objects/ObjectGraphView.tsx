// The Objects graph: workload objects of one namespace as React Flow nodes, laid out left to right.
// Each node reads its own object by id, so a status change re-renders one node, not the graph.
import { Background, Controls, Handle, Position, ReactFlow, useReactFlow } from '@xyflow/react';
import type { Edge, Node, NodeMouseHandler, NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { memo, useEffect, useMemo, useState } from 'react';
import { objectStatus } from '../../lib/object-status';
import { useAppStore, appStore } from '../../state/store';
import { selectEffectiveDark } from '../../state/selectors';
import { layoutObjectGraph } from './graph-layout';
import { makeSelectObjectGraph, objectById, selectNamespaceNames } from './graph-selectors';

type ObjectNodeData = { kind: string; name: string; count?: number };
type ObjectFlowNode = Node<ObjectNodeData>;

/** "Deployment nginx, 3/3": the node's accessible name. */
export function graphNodeLabel(kind: string, name: string, status: string): string {
  return `${kind} ${name}${status ? `, ${status}` : ''}`;
}

const ObjectNode = memo(function ObjectNode({ id, data }: NodeProps<ObjectFlowNode>) {
  const status = useAppStore((s) => {
    const obj = objectById(s, id);
    return obj ? objectStatus(obj) : '';
  });
  return (
    <div className="graph-node" data-kind={data.kind} role="group" aria-label={graphNodeLabel(data.kind, data.name, status)}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <span className="graph-node-kind">{data.kind}</span>
      <span className="graph-node-name">{data.name}</span>
      {status && <span className="graph-node-status">{status}</span>}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const PodGroupNode = memo(function PodGroupNode({ data }: NodeProps<ObjectFlowNode>) {
  return (
    <div className="graph-node graph-node-group" data-kind="Pod" role="group" aria-label={`Pods, ${data.name}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <span className="graph-node-kind">Pods</span>
      <span className="graph-node-name">{data.name}</span>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

const nodeTypes = { object: ObjectNode, pods: PodGroupNode };
const fitViewOptions = { padding: 0.1, maxZoom: 1 };

/** Re-fits the viewport when the graph's structure changes (a new layout), not on status changes. */
function FitOnChange({ structure }: { structure: unknown }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    void fitView(fitViewOptions);
  }, [structure, fitView]);
  return null;
}

const onNodeClick: NodeMouseHandler<ObjectFlowNode> = (_e, node) => {
  if (node.type !== 'object') return;
  const bar = node.id.indexOf('|');
  appStore.getState().select({ resourceKey: node.id.slice(0, bar), key: node.id.slice(bar + 1) });
};

export const ObjectGraphView = memo(function ObjectGraphView() {
  const [namespace, setNamespace] = useState('default');
  const namespaces = useAppStore(selectNamespaceNames);
  const dark = useAppStore(selectEffectiveDark);
  const selectGraph = useMemo(() => makeSelectObjectGraph(namespace), [namespace]);
  const graph = useAppStore(selectGraph);
  // The layout and React Flow's lists change only with the graph's structure (its identity), not with statuses.
  const { nodes, edges } = useMemo(() => {
    const positions = layoutObjectGraph(graph);
    const nodes: ObjectFlowNode[] = graph.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      position: positions.get(n.id) ?? { x: 0, y: 0 },
      data: { kind: n.kind, name: n.name, count: n.count },
      draggable: false,
      connectable: false,
    }));
    const edges: Edge[] = graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target }));
    return { nodes, edges };
  }, [graph]);

  return (
    <div className="object-graph">
      <label className="inline-label graph-namespace">
        Namespace{' '}
        <select value={namespace} onChange={(e) => setNamespace(e.target.value)}>
          {namespaces.map((ns) => (
            <option key={ns} value={ns}>
              {ns}
            </option>
          ))}
        </select>
      </label>
      <div className="object-graph-canvas" aria-label={`Object graph of namespace ${namespace}`} role="region">
        <ReactFlow
          key={namespace}
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodeClick={onNodeClick}
          panActivationKeyCode={null}
          deleteKeyCode={null}
          nodesConnectable={false}
          nodesDraggable={false}
          colorMode={dark ? 'dark' : 'light'}
          fitView
          fitViewOptions={fitViewOptions}
          minZoom={0.1}
          proOptions={{ hideAttribution: true }}
        >
          <FitOnChange structure={graph} />
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </div>
  );
});
