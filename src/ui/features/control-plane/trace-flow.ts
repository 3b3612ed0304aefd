// Turns the worker's trace events into what the Control plane view animates: one finished request per
// api.request…api.response (who sent it, the stages it passed, where it was refused, what it committed), one
// watch delivery per watch.delivery (to whom), the controllers' reconciles and the scheduler's outcomes.
// Pure and incremental: a correlator keeps the few maps it needs across batches, each bounded.
import type { TraceEvent } from '../../../shared/protocol/trace';
import { TraceKind } from '../../../shared/protocol/trace';

/** Who sent a request or receives a watch: the page's components, by id. */
export type FlowComponentId = 'user' | 'kcm' | 'scheduler' | `controller:${string}` | `kubelet:${string}`;

export const controllerManagerUser = 'system:kube-controller-manager';
export const schedulerUser = 'system:kube-scheduler';
const nodeUserPrefix = 'system:node:';

/**
 * The component a Kubernetes user stands for: kube-controller-manager, kube-scheduler, a node's kubelet
 * (system:node:<name>), or else a person (the acting user, or whomever they impersonate).
 */
export function componentOfUser(user: string): FlowComponentId {
  if (user === controllerManagerUser) return 'kcm';
  if (user === schedulerUser) return 'scheduler';
  if (user.startsWith(nodeUserPrefix) && user.length > nodeUserPrefix.length) return `kubelet:${user.slice(nodeUserPrefix.length)}`;
  return 'user';
}

export interface StageOutcome {
  stage: string;
  decision: string;
  message?: string;
}

export interface FlowRequest {
  /** seq of the api.request event (the token's identity). */
  seq: number;
  requestId: string;
  /** seq of its api.response. */
  responseSeq: number;
  /** Simulated time the request finished, ms. */
  time: number;
  user: string;
  /** The sender: a specific controller when the cause chain names one. */
  from: FlowComponentId;
  verb: string;
  group: string;
  /** As the API server names it, with a subresource: "deployments/status". */
  resource: string;
  namespace: string;
  /** Empty for a create (the name is in the body) and for collections; see objectName. */
  name: string;
  stages: StageOutcome[];
  /** The stage that refused the request (api.stage decision "refuse"). */
  refusedAt?: string;
  code: number;
  reason?: string;
  message?: string;
  /** The revision the request committed, and the keys it wrote. */
  revision?: number;
  writes: { type: string; key: string }[];
}

export interface FlowDelivery {
  seq: number;
  time: number;
  watch: string;
  /** The watching user when the trace names it (data.user), else the user that opened the watch, if seen. */
  user?: string;
  to?: FlowComponentId;
  group: string;
  resource: string;
  count: number;
  revision?: number;
  /** Store keys written at that revision, when the commit was seen. */
  keys: string[];
}

export interface FlowReconcile {
  seq: number;
  time: number;
  controller: string;
  key: string;
}

export interface FlowSchedule {
  seq: number;
  time: number;
  pod: string;
  result: 'Scheduled' | 'Unschedulable';
  node?: string;
  reason?: string;
  message?: string;
}

export interface FlowOutput {
  requests: FlowRequest[];
  deliveries: FlowDelivery[];
  reconciles: FlowReconcile[];
  schedules: FlowSchedule[];
}

const pendingCap = 1000;
const eventCap = 5000;
const commitCap = 2000;
const watchCap = 2000;

interface Pending extends Omit<FlowRequest, 'time' | 'code' | 'responseSeq'> {
  cause?: number;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

function bound<K, V>(map: Map<K, V>, cap: number): void {
  // Maps iterate in insertion order: drop the oldest entries.
  if (map.size <= cap) return;
  let excess = map.size - cap;
  for (const k of map.keys()) {
    if (excess-- <= 0) break;
    map.delete(k);
  }
}

/** Events that may name a controller as the cause of a request: its reconcile, its queue, or its own custom events. */
function controllerOf(e: { kind: string; component: string }, queueOwners: Map<string, string>): string | undefined {
  if (e.kind === TraceKind.ReconcileStart || e.kind === TraceKind.ReconcileEnd) return e.component;
  if (e.component.startsWith('workqueue/')) return queueOwners.get(e.component.slice('workqueue/'.length));
  // kube-controller-manager's names: "deployment-controller", "garbage-collector-controller", "pod-garbage-collector".
  if (e.kind === TraceKind.Custom && /-(controller|collector)$/.test(e.component)) return e.component;
  return undefined;
}

export interface FlowCorrelator {
  ingest(events: readonly TraceEvent[]): FlowOutput;
}

export function createFlowCorrelator(): FlowCorrelator {
  const pending = new Map<string, Pending>();
  /** seq → the little the cause chain needs. */
  const events = new Map<number, { kind: string; component: string; cause?: number }>();
  /** Work queue name → its controller (learned from reconcile events, which carry both). */
  const queueOwners = new Map<string, string>();
  const commits = new Map<number, { type: string; key: string }[]>();
  /** requestId of a watch request → its user, for traces whose deliveries do not name it. */
  const watchUsers = new Map<string, string>();

  /** Walks a few causes up to the controller that acted, if any. */
  function causingController(cause: number | undefined): string | undefined {
    for (let i = 0, seq = cause; i < 8 && seq !== undefined; i++) {
      const e = events.get(seq);
      if (!e) return undefined;
      const c = controllerOf(e, queueOwners);
      if (c) return c;
      seq = e.cause;
    }
    return undefined;
  }

  return {
    ingest(batch) {
      const out: FlowOutput = { requests: [], deliveries: [], reconciles: [], schedules: [] };
      for (const e of batch) {
        events.set(e.seq, { kind: e.kind, component: e.component, cause: e.cause });
        const d = e.data;
        switch (e.kind) {
          case TraceKind.ApiRequest: {
            if (!e.requestId) break;
            const user = str(d.user);
            let from = componentOfUser(user);
            if (from === 'kcm') {
              const controller = causingController(e.cause);
              if (controller) from = `controller:${controller}`;
            }
            if (d.verb === 'watch') watchUsers.set(e.requestId, user);
            pending.set(e.requestId, {
              seq: e.seq,
              requestId: e.requestId,
              user,
              from,
              verb: str(d.verb),
              group: str(d.group),
              resource: str(d.resource),
              namespace: str(d.namespace),
              name: str(d.name),
              stages: [],
              writes: [],
              cause: e.cause,
            });
            break;
          }
          case TraceKind.ApiStage: {
            const p = e.requestId ? pending.get(e.requestId) : undefined;
            if (!p) break;
            const outcome: StageOutcome = { stage: str(d.stage), decision: str(d.decision) };
            if (typeof d.message === 'string') outcome.message = d.message;
            p.stages.push(outcome);
            if (outcome.decision === 'refuse' && p.refusedAt === undefined) {
              p.refusedAt = outcome.stage;
              if (outcome.message) p.message = outcome.message;
            }
            break;
          }
          case TraceKind.StoreCommit: {
            const revision = num(d.revision);
            const writes = Array.isArray(d.events) ? (d.events as { type?: unknown; key?: unknown }[]).map((w) => ({ type: str(w.type), key: str(w.key) })) : [];
            if (revision !== undefined) commits.set(revision, writes);
            // A commit names the request it belongs to as its cause (the api.request's seq).
            for (const p of pending.values()) {
              if (p.seq === e.cause) {
                p.revision = revision;
                p.writes.push(...writes);
                break;
              }
            }
            break;
          }
          case TraceKind.ApiResponse: {
            const p = e.requestId ? pending.get(e.requestId) : undefined;
            if (!p) break;
            pending.delete(p.requestId);
            const { cause: _cause, ...rest } = p;
            const request: FlowRequest = { ...rest, responseSeq: e.seq, time: e.time, code: num(d.code) ?? 0 };
            if (typeof d.reason === 'string') request.reason = d.reason;
            if (typeof d.message === 'string' && request.message === undefined) request.message = d.message;
            out.requests.push(request);
            break;
          }
          case TraceKind.WatchDelivery: {
            const user = typeof d.user === 'string' ? d.user : e.requestId ? watchUsers.get(e.requestId) : undefined;
            const revision = num(d.revision);
            const group = str(d.group);
            const resource = str(d.resource);
            const prefix = `/registry/${group || 'core'}/${resource}/`;
            const keys = revision !== undefined ? (commits.get(revision) ?? []).map((w) => w.key).filter((k) => k.startsWith(prefix)) : [];
            const delivery: FlowDelivery = { seq: e.seq, time: e.time, watch: str(d.watch), group, resource, count: num(d.count) ?? 0, keys };
            if (user !== undefined) {
              delivery.user = user;
              delivery.to = componentOfUser(user);
            }
            if (revision !== undefined) delivery.revision = revision;
            out.deliveries.push(delivery);
            break;
          }
          case TraceKind.ReconcileStart: {
            const queue = str(d.queue);
            if (queue) queueOwners.set(queue, e.component);
            out.reconciles.push({ seq: e.seq, time: e.time, controller: e.component, key: str(d.key) });
            break;
          }
          case TraceKind.Custom: {
            if (e.component !== 'scheduler') break;
            if (d.type === 'schedule.bound') out.schedules.push({ seq: e.seq, time: e.time, pod: str(d.pod), result: 'Scheduled', node: str(d.node) });
            else if (d.type === 'schedule.failed') {
              out.schedules.push({ seq: e.seq, time: e.time, pod: str(d.pod), result: 'Unschedulable', reason: str(d.reason), message: str(d.message) });
            }
            break;
          }
        }
      }
      bound(pending, pendingCap);
      bound(events, eventCap);
      bound(commits, commitCap);
      bound(watchUsers, watchCap);
      return out;
    },
  };
}

// ---------------------------------------------------------------- objects a request or delivery touched

export interface ObjectRef {
  /** The objects slice's key: "apps/deployments", "/pods". */
  resourceKey: string;
  /** "namespace/name" or "name". */
  key: string;
  group: string;
  resource: string;
  namespace: string;
  name: string;
}

/** Parses a store key, /registry/<group|core>/<resource>/[<namespace>/]<name>. */
export function parseStoreKey(storeKey: string): ObjectRef | undefined {
  const parts = storeKey.split('/');
  // ['', 'registry', group, resource, (namespace,) name]
  if (parts[0] !== '' || parts[1] !== 'registry' || (parts.length !== 5 && parts.length !== 6)) return undefined;
  const group = parts[2] === 'core' ? '' : parts[2];
  const resource = parts[3];
  const namespace = parts.length === 6 ? parts[4] : '';
  const name = parts[parts.length - 1];
  if (!resource || !name) return undefined;
  return { resourceKey: `${group}/${resource}`, key: namespace ? `${namespace}/${name}` : name, group, resource, namespace, name };
}

/** The object a request was about: what it committed, else what it named (a create names none until it commits). */
export function requestObject(r: Pick<FlowRequest, 'writes' | 'group' | 'resource' | 'namespace' | 'name'>): ObjectRef | undefined {
  for (const w of r.writes) {
    const ref = parseStoreKey(w.key);
    if (ref) return ref;
  }
  if (!r.name) return undefined;
  const resource = r.resource.split('/')[0];
  return { resourceKey: `${r.group}/${resource}`, key: r.namespace ? `${r.namespace}/${r.name}` : r.name, group: r.group, resource, namespace: r.namespace, name: r.name };
}

/** "create deployments/nginx by kubernetes-admin": a request token's accessible name. */
export function requestLabel(r: Pick<FlowRequest, 'verb' | 'resource' | 'name' | 'user' | 'writes' | 'group' | 'namespace'>): string {
  const name = r.name || requestObject(r)?.name || '';
  return `${r.verb} ${r.resource}${name ? `/${name}` : ''} by ${r.user || 'anonymous'}`;
}

const componentNames: Record<string, string> = { user: 'the user', kcm: 'kube-controller-manager', scheduler: 'kube-scheduler' };

/** A component's name for people: "deployment-controller", "kubelet on node-1", "kube-scheduler". */
export function componentName(id: FlowComponentId): string {
  if (id.startsWith('controller:')) return id.slice('controller:'.length);
  if (id.startsWith('kubelet:')) return `kubelet on ${id.slice('kubelet:'.length)}`;
  return componentNames[id] ?? id;
}

/** "watch pods (1 event, revision 57) to kube-scheduler": a watch token's accessible name. */
export function deliveryLabel(d: Pick<FlowDelivery, 'resource' | 'count' | 'revision' | 'to' | 'user'>): string {
  const events = `${d.count} ${d.count === 1 ? 'event' : 'events'}`;
  const rev = d.revision !== undefined ? `, revision ${d.revision}` : '';
  const to = d.to ? componentName(d.to) : (d.user ?? 'a watcher');
  return `watch ${d.resource} (${events}${rev}) to ${to}`;
}
