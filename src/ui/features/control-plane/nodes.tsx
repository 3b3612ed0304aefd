// The Control plane graph's nodes and edges. Node and edge types live at module scope; each node is memo'd and
// reads only its own numbers (a narrow selector), so a poll or a token re-renders the one box it changed.
import { BaseEdge, EdgeLabelRenderer, Handle, Position } from '@xyflow/react';
import type { Edge, EdgeProps, Node, NodeProps } from '@xyflow/react';
import { memo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatSimTime } from '../../lib/sim-time';
import { useAppStore } from '../../state/store';
import { kubeletState, queueSummary, selectController, selectKubelet, selectScheduler } from './component-selectors';
import type { Point } from './flow-layout';
import { svgPath } from './flow-layout';
import { useTokens } from './token-store';
import { requestLabel } from './trace-flow';

export interface RelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type UserNodeData = { user: string | undefined };
export type ApiServerNodeData = { stages: (RelBox & { stage: string; label: string; small: boolean })[] };
export type KcmNodeData = { cards: (RelBox & { name: string })[] };
export type KubeletNodeData = { node: string };
export type EmptyData = Record<string, never>;

const hidden = { opacity: 0 };

/** Edges need a handle at each end; the lanes draw their own routes, so the handles stay invisible. */
function Handles() {
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={false} style={hidden} />
      <Handle type="source" position={Position.Right} isConnectable={false} style={hidden} />
    </>
  );
}

const simClock = (ms: number) => formatSimTime(ms).slice(11, 19);

const UserNode = memo(function UserNode({ data }: NodeProps<Node<UserNodeData>>) {
  return (
    <div className="cp-node cp-user" role="group" aria-label={`User ${data.user ?? ''}`.trim()}>
      <Handles />
      <span className="cp-kind">user · kubectl</span>
      <strong className="cp-title mono">{data.user ?? '…'}</strong>
      <span className="cp-sub">this page applies as this user</span>
    </div>
  );
});

const ApiServerNode = memo(function ApiServerNode({ data }: NodeProps<Node<ApiServerNodeData>>) {
  const serving = useAppStore((s) => (s.components ? s.components.apiServer.serving : undefined));
  const refusal = useAppStore((s) => s.refusals.at(-1));
  const [dismissed, setDismissed] = useState<number | undefined>(undefined);
  const shown = refusal && refusal.seq !== dismissed ? refusal : undefined;
  const state = serving === undefined ? 'unknown' : serving ? 'serving' : 'stopped';
  return (
    <div className="cp-node cp-apiserver" role="group" aria-label="API server" data-state={state}>
      <Handles />
      <div className="cp-head">
        <strong className="cp-title">kube-apiserver</strong>
        <span className="cp-state" data-state={state}>
          {state === 'unknown' ? 'state unknown' : state}
        </span>
      </div>
      <ol className="cp-stages" aria-label="API server stages">
        {data.stages.map((s) => {
          const refused = shown?.refusedAt === s.stage;
          return (
            <li
              key={s.stage}
              className="cp-stage"
              data-small={s.small || undefined}
              data-refused={refused || undefined}
              style={{ left: s.x, top: s.y, width: s.w, height: s.h }}
              title={s.stage}
            >
              {s.label}
              {refused && <span className="visually-hidden"> refused</span>}
            </li>
          );
        })}
      </ol>
      {state === 'stopped' && <p className="cp-stopped">Stopped: requests and watches get no answer.</p>}
      {shown && state !== 'stopped' && (
        <div className="cp-refusal" role="group" aria-label="Last refusal">
          <p>
            <strong>Refused at {shown.refusedAt}</strong> <span className="mono">{simClock(shown.time)}</span> · {requestLabel(shown)} → {shown.code}
          </p>
          <p className="cp-refusal-message" title={shown.message}>
            {shown.message}
          </p>
          <button type="button" className="cp-dismiss nodrag nopan" aria-label="Dismiss the refusal" onClick={() => setDismissed(shown.seq)}>
            ×
          </button>
        </div>
      )}
    </div>
  );
});

const EtcdNode = memo(function EtcdNode() {
  const etcd = useAppStore(useShallow((s) => (s.components ? [s.components.etcd.revision, s.components.etcd.keys] : [])));
  return (
    <div className="cp-node cp-etcd" role="group" aria-label="etcd">
      <Handles />
      <strong className="cp-title">etcd</strong>
      {etcd.length ? (
        <>
          <span className="cp-big">revision {etcd[0]}</span>
          <span className="cp-sub">{etcd[1]} keys</span>
        </>
      ) : (
        <span className="cp-sub">revision unknown</span>
      )}
    </div>
  );
});

const ControllerCard = memo(function ControllerCard({ name, box }: { name: string; box: RelBox }) {
  const q = useAppStore(
    useShallow((s) => {
      const c = selectController(name)(s);
      if (!c) return undefined;
      const sum = queueSummary(c);
      return [sum.depth, sum.processing, sum.waiting, sum.retries, sum.keys.slice(0, 2).join(', '), sum.retryKeys.slice(0, 1).join('')] as const;
    }),
  );
  const pulse = useTokens((s) => s.pulses[name] ?? 0);
  const [depth, processing, waiting, retries, keys, retryKey] = q ?? [];
  return (
    <div className="cp-controller" role="group" aria-label={name} data-busy={(depth ?? 0) + (processing ?? 0) > 0 || undefined} style={{ left: box.x, top: box.y, width: box.w, height: box.h }}>
      {pulse > 0 && <span key={pulse} className="cp-pulse" aria-hidden="true" />}
      <span className="cp-controller-name" title={name}>
        {name.replace(/-controller$/, '')}
      </span>
      {q ? (
        <>
          <span className="cp-queue">
            queue <strong>{depth}</strong>
            {processing ? ` · ${processing} working` : ''}
            {waiting ? ` · ${waiting} waiting` : ''}
            {retries ? ` · ${retries} retrying` : ''}
          </span>
          <span className="cp-keys mono" title={retryKey || keys}>
            {keys || retryKey || '\u00a0'}
          </span>
        </>
      ) : (
        <span className="cp-queue muted">queue unknown</span>
      )}
    </div>
  );
});

const KcmNode = memo(function KcmNode({ data }: NodeProps<Node<KcmNodeData>>) {
  const head = useAppStore(
    useShallow((s) => {
      if (!s.components) return undefined;
      const informers = s.components.informers.filter((i) => i.owner === 'kube-controller-manager');
      return [s.components.controllerManager.running, informers.length, informers.filter((i) => i.synced).length] as const;
    }),
  );
  const state = head === undefined ? 'state unknown' : head[0] ? 'running' : 'stopped';
  return (
    <div className="cp-node cp-kcm" role="group" aria-label="kube-controller-manager" data-state={head && !head[0] ? 'stopped' : undefined}>
      <Handles />
      <div className="cp-head">
        <strong className="cp-title">kube-controller-manager</strong>
        <span className="cp-state">{state}</span>
        <span className="cp-informers" title="Shared informers: each watches one resource and feeds the controllers' queues">
          {head ? `informers ${head[2]}/${head[1]} synced` : 'informers'}
        </span>
      </div>
      {data.cards.map((c) => (
        <ControllerCard key={c.name} name={c.name} box={c} />
      ))}
      {data.cards.length === 0 && <p className="cp-sub cp-empty">Controllers unknown until they report.</p>}
    </div>
  );
});

const SchedulerNode = memo(function SchedulerNode() {
  const view = useAppStore(selectScheduler);
  const traced = useAppStore((s) => s.lastSchedule);
  const snapshotDecision = view?.lastDecision;
  // The newer of the two: the snapshot's decision, or the trace's latest outcome.
  const decision =
    snapshotDecision && (!traced || snapshotDecision.time >= traced.time)
      ? { pod: snapshotDecision.pod, result: snapshotDecision.result, node: snapshotDecision.node, message: snapshotDecision.message, time: snapshotDecision.time }
      : traced
        ? { pod: traced.pod, result: traced.result, node: traced.node, message: traced.message, time: traced.time }
        : undefined;
  const state = view === undefined ? 'state unknown' : view.running ? 'running' : 'stopped';
  return (
    <div className="cp-node cp-scheduler" role="group" aria-label="kube-scheduler" data-state={view && !view.running ? 'stopped' : undefined}>
      <Handles />
      <div className="cp-head">
        <strong className="cp-title">kube-scheduler</strong>
        <span className="cp-state">{state}</span>
      </div>
      {view ? (
        <dl className="cp-sched-queues">
          <div>
            <dt>active</dt>
            <dd>{view.counts.active}</dd>
          </div>
          <div>
            <dt>backoff</dt>
            <dd>{view.counts.backoff}</dd>
          </div>
          <div>
            <dt>unschedulable</dt>
            <dd>{view.counts.unschedulable}</dd>
          </div>
        </dl>
      ) : (
        <p className="cp-sub">queues unknown</p>
      )}
      {view && view.unschedulable.length > 0 && (
        <p className="cp-keys mono" title={view.unschedulable.join(', ')}>
          waiting: {view.unschedulable.slice(0, 2).join(', ')}
        </p>
      )}
      <div className="cp-decision" data-result={decision?.result}>
        <span className="cp-kind">last decision</span>
        {decision ? (
          decision.result === 'Scheduled' ? (
            <span className="mono">
              {decision.pod} → {decision.node}
            </span>
          ) : (
            <span title={decision.message}>
              <span className="mono">{decision.pod}</span> {decision.result.toLowerCase()}: {decision.message}
            </span>
          )
        ) : (
          <span className="cp-sub">none yet</span>
        )}
      </div>
    </div>
  );
});

const KubeletNode = memo(function KubeletNode({ data }: NodeProps<Node<KubeletNodeData>>) {
  const view = useAppStore(useShallow((s) => {
    const k = selectKubelet(data.node)(s);
    return k ? [kubeletState(k), k.pods] : [];
  }));
  const state = (view[0] as string | undefined) ?? 'unknown';
  return (
    <div className="cp-node cp-kubelet" role="group" aria-label={`kubelet on ${data.node}`} data-state={state}>
      <Handles />
      <span className="cp-kind">kubelet</span>
      <strong className="cp-title mono">{data.node}</strong>
      <span className="cp-state" data-state={state}>
        {state === 'unknown' ? 'state unknown' : state}
        {view.length ? ` · ${view[1]} ${view[1] === 1 ? 'pod' : 'pods'}` : ''}
      </span>
    </div>
  );
});

/** An empty node spanning the whole layout, so fitting the view keeps the lanes that run outside the boxes. */
const BoundsNode = memo(function BoundsNode() {
  return <div className="cp-bounds" aria-hidden="true" />;
});

export const nodeTypes = {
  bounds: BoundsNode,
  user: UserNode,
  apiserver: ApiServerNode,
  etcd: EtcdNode,
  kcm: KcmNode,
  scheduler: SchedulerNode,
  kubelet: KubeletNode,
};

export type LaneEdgeData = { points: Point[]; kind: 'request' | 'watch' };

/** Where a lane's overflow count sits: beside its first bend (requests) or its last (watches). */
function badgePoint(points: Point[], kind: 'request' | 'watch'): Point {
  const p = kind === 'request' ? points[Math.min(1, points.length - 1)] : points[Math.max(0, points.length - 2)];
  return p ?? { x: 0, y: 0 };
}

const LaneEdge = memo(function LaneEdge({ id, data }: EdgeProps<Edge<LaneEdgeData>>) {
  const overflow = useTokens((s) => s.overflow[id]?.count ?? 0);
  if (!data) return null;
  const at = badgePoint(data.points, data.kind);
  return (
    <>
      <BaseEdge id={id} path={svgPath(data.points)} className={`cp-lane cp-lane-${data.kind}`} />
      {overflow > 0 && (
        <EdgeLabelRenderer>
          <span className="cp-overflow" style={{ transform: `translate(-50%, -50%) translate(${at.x}px, ${at.y}px)` }} title="Tokens not drawn: too many at once">
            +{overflow}
          </span>
        </EdgeLabelRenderer>
      )}
    </>
  );
});

export const edgeTypes = { lane: LaneEdge };
