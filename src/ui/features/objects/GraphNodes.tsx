// The React Flow node components of the Objects graph. Each reads its own object from the store by id, so a
// status change re-renders one node, not the graph; each is a button that opens the object in the inspector.
import { Handle, Position } from '@xyflow/react';
import type { Node, NodeProps } from '@xyflow/react';
import { memo, useMemo, useRef } from 'react';
import type { ObjectBadge } from '../../lib/object-status';
import { objectBadge } from '../../lib/object-status';
import { appStore, useAppStore } from '../../state/store';
import { parsePodCounts, objectById, selectPodCountsOfOwner } from './graph-selectors';
import { kindShortName } from './kind-icons';
import type { ObjectGraphNode } from './object-graph';
import { objectTitle } from './object-graph';
import { ObjectsMode, objectsViewStore, useObjectsView } from './objects-view-state';

export type GraphNodeData = {
  node: ObjectGraphNode;
  /** A ghost of a removed object, fading out where it was. */
  leaving: boolean;
  /** Names carry their namespace (the "All namespaces" view). */
  withNamespace: boolean;
};

export type GraphFlowNode = Node<GraphNodeData>;

/** "Deployment nginx, 3/3": a node's accessible name (the kind, the name, the status badge). */
export function graphNodeLabel(title: string, status: string): string {
  return `${title}${status ? `, ${status}` : ''}`;
}

function select(graphId: string) {
  const bar = graphId.indexOf('|');
  appStore.getState().select({ resourceKey: graphId.slice(0, bar), key: graphId.slice(bar + 1) });
}

const useIsSelected = (graphId: string) =>
  useAppStore((s) => s.selected !== undefined && `${s.selected.resourceKey}|${s.selected.key}` === graphId);

const empty: ObjectBadge = { text: '', tone: 'neutral' };

export const ObjectNode = memo(function ObjectNode({ id, data }: NodeProps<GraphFlowNode>) {
  const { node, leaving, withNamespace } = data;
  const obj = useAppStore((s) => objectById(s, id));
  // Only CronJobs say something time-relative; the others do not subscribe to the clock.
  const now = useAppStore((s) => (node.kind === 'CronJob' ? Math.floor((s.sim?.time ?? 0) / 1000) * 1000 : undefined));
  const computed = useMemo(() => (obj ? objectBadge(obj, now) : undefined), [obj, now]);
  // A ghost keeps the badge it last showed.
  const lastBadge = useRef<ObjectBadge>(empty);
  if (computed) lastBadge.current = computed;
  const badge = computed ?? lastBadge.current;
  const selected = useIsSelected(id);
  const toggleExpanded = useObjectsView((s) => s.toggleExpanded);
  const title = objectTitle(node, withNamespace);
  const label = graphNodeLabel(title, badge.text);

  const body = (
    <>
      <span className="graph-node-icon" aria-hidden="true">
        {kindShortName(node.kind)}
      </span>
      <span className="graph-node-kind">{node.kind}</span>
      {badge.text && (
        <span className="graph-node-status" data-tone={badge.tone}>
          {badge.text}
        </span>
      )}
      <span className="graph-node-name" title={node.name}>
        {node.name}
      </span>
      {(badge.detail || (withNamespace && node.namespace)) && (
        <span className="graph-node-detail">{badge.detail ?? node.namespace}</span>
      )}
    </>
  );

  return (
    <div className="graph-node-shell" data-leaving={leaving || undefined}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      {leaving ? (
        <div className="graph-node" data-kind={node.kind} data-tone={badge.tone} aria-hidden="true">
          {body}
        </div>
      ) : (
        <button type="button" className="graph-node" data-kind={node.kind} data-tone={badge.tone} aria-label={label} aria-pressed={selected} onClick={() => select(id)}>
          {body}
        </button>
      )}
      {node.expanded && !leaving && (
        <button type="button" className="graph-node-action" aria-label={`Group the pods of ${title}`} onClick={() => toggleExpanded(id)}>
          Group pods
        </button>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

/** "Pods of ReplicaSet web-1, 500 pods: 480 Running, 20 Pending". */
export function podGroupLabel(title: string, counts: readonly [string, number][]): string {
  const total = counts.reduce((n, [, c]) => n + c, 0);
  return `${title}, ${total} pod${total === 1 ? '' : 's'}${counts.length ? `: ${counts.map(([state, n]) => `${n} ${state}`).join(', ')}` : ''}`;
}

export const PodGroupNode = memo(function PodGroupNode({ data }: NodeProps<GraphFlowNode>) {
  const { node, leaving, withNamespace } = data;
  const owner = node.owner!;
  const countsText = useAppStore((s) => selectPodCountsOfOwner(s, owner.uid));
  const lastCounts = useRef('');
  if (countsText) lastCounts.current = countsText;
  const counts = useMemo(() => parsePodCounts(countsText || lastCounts.current), [countsText]);
  const total = counts.reduce((n, [, c]) => n + c, 0);
  const selected = useIsSelected(owner.id);
  const toggleExpanded = useObjectsView((s) => s.toggleExpanded);
  const title = objectTitle(node, withNamespace);

  const body = (
    <>
      <span className="graph-node-icon" aria-hidden="true">
        po
      </span>
      <span className="graph-node-kind">Pods</span>
      <span className="graph-node-status" data-tone="neutral">
        {total}
      </span>
      <span className="graph-node-name">{owner.name}</span>
      <span className="graph-group-bar" aria-hidden="true">
        {counts.map(([state, n]) => (
          <span key={state} className="graph-group-segment" data-state={state} style={{ flexGrow: n }} title={`${n} ${state}`} />
        ))}
      </span>
    </>
  );

  return (
    <div className="graph-node-shell" data-leaving={leaving || undefined}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      {leaving ? (
        <div className="graph-node graph-node-group" data-kind="Pod" aria-hidden="true">
          {body}
        </div>
      ) : (
        <button type="button" className="graph-node graph-node-group" data-kind="Pod" aria-label={podGroupLabel(title, counts)} aria-pressed={selected} onClick={() => select(owner.id)}>
          {body}
        </button>
      )}
      {!leaving && (
        <button type="button" className="graph-node-action" aria-label={`Show the ${total} pods of ${owner.kind} ${owner.name} one by one`} onClick={() => toggleExpanded(owner.id)}>
          Expand
        </button>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

/** "ConfigMaps in default, 10000 not used by any pod": a leaf group's accessible name. */
export function leafGroupLabel(title: string, count: number): string {
  return `${title}, ${count} not used by any pod`;
}

/** "Show the 10000 ConfigMaps in default one by one": the Expand action's name. */
export function leafGroupExpandLabel(node: Pick<ObjectGraphNode, 'kind' | 'namespace' | 'count'>): string {
  return `Show the ${node.count ?? 0} ${node.kind}s in ${node.namespace ?? ''} one by one`;
}

/**
 * A namespace's ConfigMaps (or Secrets) that nothing links to, as one node: its kind and count. Opening it shows
 * the Objects table, where every one of them is a row; Expand draws them one by one.
 */
export const LeafGroupNode = memo(function LeafGroupNode({ data }: NodeProps<GraphFlowNode>) {
  const { node, leaving } = data;
  const toggleExpanded = useObjectsView((s) => s.toggleExpanded);
  const count = node.count ?? 0;
  const title = objectTitle(node, true);

  const body = (
    <>
      <span className="graph-node-icon" aria-hidden="true">
        {kindShortName(node.kind)}
      </span>
      <span className="graph-node-kind">{node.kind}s</span>
      <span className="graph-node-status" data-tone="neutral">
        {count}
      </span>
      <span className="graph-node-name">{node.namespace}</span>
      <span className="graph-node-detail">not used by any pod</span>
    </>
  );

  return (
    <div className="graph-node-shell" data-leaving={leaving || undefined}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      {leaving ? (
        <div className="graph-node graph-node-group" data-kind={node.kind} aria-hidden="true">
          {body}
        </div>
      ) : (
        <button type="button" className="graph-node graph-node-group" data-kind={node.kind} aria-label={leafGroupLabel(title, count)} onClick={() => objectsViewStore.getState().setMode(ObjectsMode.Table)}>
          {body}
        </button>
      )}
      {!leaving && (
        <button type="button" className="graph-node-action" aria-label={leafGroupExpandLabel(node)} onClick={() => toggleExpanded(node.id)}>
          Expand
        </button>
      )}
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});

export const graphNodeTypes = { object: ObjectNode, pods: PodGroupNode, objects: LeafGroupNode };
