// "Why does this exist?": a trace/why chain (root cause first) as sentences a person reads, e.g.
// "kubernetes-admin created deployments/nginx in default" → "deployment-controller reconciled default/nginx" → …
import type { TraceEvent } from '../../../shared/protocol/trace';

export interface WhyLine {
  seq: number;
  /** Simulated time, ms. */
  time: number;
  /** Who acted: "kubernetes-admin", "deployment-controller", "etcd", "kubelet on node-1". */
  actor: string;
  text: string;
}

const pastTense: Record<string, string> = {
  create: 'created',
  update: 'updated',
  patch: 'patched',
  delete: 'deleted',
  deletecollection: 'deleted the collection',
  get: 'read',
  list: 'listed',
  watch: 'watched',
};

/** A user name as a person would say it: controllers, the scheduler and kubelets by their component name. */
export function actorName(user: string | undefined): string {
  if (!user) return 'someone';
  const sa = /^system:serviceaccount:kube-system:(.+)$/.exec(user);
  if (sa) return sa[1];
  const node = /^system:node:(.+)$/.exec(user);
  if (node) return `kubelet on ${node[1]}`;
  if (user === 'system:kube-scheduler') return 'kube-scheduler';
  if (user === 'system:kube-controller-manager') return 'kube-controller-manager';
  return user;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** The name an etcd key ends with: "/registry/pods/default/nginx-abc" → "nginx-abc". */
function nameFromKey(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

function committedKeys(e: TraceEvent): string[] {
  const events = e.data.events;
  return Array.isArray(events) ? events.map((x) => str((x as { key?: unknown }).key)).filter(Boolean) : [];
}

/**
 * The chain as lines, one per event. Two things the single events do not say are filled in from their neighbours:
 * the name a generateName create got (from the commit that follows it), and which controller the controller
 * manager's shared identity was acting for (the reconcile that precedes it). objectName names the object the
 * chain ends with, for its own create when no commit follows it.
 */
export function whyLines(chain: readonly TraceEvent[], objectName?: string): WhyLine[] {
  let reconciler: string | undefined;
  // The chain ends with this object's creation: a create with a generated name there made objectName.
  const lastCreate = chain.findLastIndex((e) => e.kind === 'api.request' && e.data.verb === 'create');
  return chain.map((e, i) => {
    const d = e.data;
    let actor = e.component;
    let text: string;
    switch (e.kind) {
      case 'api.request': {
        actor = actorName(str(d.user));
        if (actor === 'kube-controller-manager' && reconciler) actor = reconciler;
        let name = str(d.name);
        if (!name) {
          const commit = chain.slice(i + 1).find((n) => n.kind === 'store.commit' && (n.cause === e.seq || n.cause === undefined));
          const key = commit ? committedKeys(commit)[0] : undefined;
          if (key) name = nameFromKey(key);
          else if (i === lastCreate && objectName) name = objectName;
        }
        const ns = str(d.namespace);
        const verb = pastTense[str(d.verb)] ?? str(d.verb);
        text = `${actor} ${verb} ${str(d.resource)}${name ? `/${name}` : ''}${ns ? ` in ${ns}` : ''}`;
        break;
      }
      case 'api.response':
        actor = 'kube-apiserver';
        text = `kube-apiserver answered ${str(d.code)}${d.reason ? ` ${str(d.reason)}` : ''}${d.message ? `: ${str(d.message)}` : ''}`;
        break;
      case 'api.stage':
        actor = 'kube-apiserver';
        text = `kube-apiserver ${str(d.stage)}: ${str(d.decision) === 'refuse' ? 'refused' : 'passed'}${d.message ? ` (${str(d.message)})` : ''}`;
        break;
      case 'store.commit': {
        const keys = committedKeys(e);
        text = `etcd committed revision ${str(d.revision)}${keys.length ? ` (${keys.join(', ')})` : ''}`;
        break;
      }
      case 'watch.delivery':
        actor = 'kube-apiserver';
        text = `kube-apiserver sent ${str(d.count)} watch event${d.count === 1 ? '' : 's'} on ${str(d.resource)}`;
        break;
      case 'queue.add':
        actor = `${str(d.queue) || e.component} queue`;
        text = `${str(d.key)} was queued on the ${str(d.queue)} queue`;
        break;
      case 'queue.get':
        actor = `${str(d.queue) || e.component} queue`;
        text = `the ${str(d.queue)} queue handed out ${str(d.key)}`;
        break;
      case 'queue.done':
        actor = `${str(d.queue) || e.component} queue`;
        text = `the ${str(d.queue)} queue finished ${str(d.key)}`;
        break;
      case 'queue.retry':
        actor = `${str(d.queue) || e.component} queue`;
        text = `the ${str(d.queue)} queue will retry ${str(d.key)}`;
        break;
      case 'reconcile.start':
        actor = str(d.controller) || e.component;
        reconciler = actor;
        text = `${actor} reconciled ${str(d.key)}`;
        break;
      case 'reconcile.end':
        actor = str(d.controller) || e.component;
        text = `${actor} finished reconciling ${str(d.key)}${d.outcome ? ` (${str(d.outcome)})` : ''}`;
        break;
      default:
        text = customText(e);
    }
    return { seq: e.seq, time: e.time, actor, text };
  });
}

function customText(e: TraceEvent): string {
  const d = e.data;
  const what = str(d.event) || str(d.type);
  if (what === 'informer.delta') {
    const keys = Array.isArray(d.keys) ? (d.keys as unknown[]).map(str) : [];
    return `${e.component} saw ${keys.length ? keys.slice(0, 3).join(', ') + (keys.length > 3 ? ', …' : '') : 'a change'}${d.source ? ` (${str(d.source)})` : ''}`;
  }
  if (what === 'deployment.scaleReplicaSet') {
    return `${e.component} scaled replica set ${str(d.replicaSet)} from ${str(d.from)} to ${str(d.to)}`;
  }
  const details = Object.entries(d)
    .filter(([k, v]) => k !== 'event' && k !== 'type' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
    .slice(0, 4)
    .map(([k, v]) => `${k}=${str(v)}`)
    .join(' ');
  return `${e.component}: ${what || 'event'}${details ? ` ${details}` : ''}`;
}

const plumbing: ReadonlySet<string> = new Set(['api.response', 'api.stage', 'store.commit', 'watch.delivery', 'queue.add', 'queue.get', 'queue.done', 'queue.retry', 'reconcile.end']);

/**
 * The steps a person follows (who wrote what, which controller reconciled what, what the scheduler and kubelets
 * did); the plumbing between them (commits, watch deliveries, queue operations, informer deltas, reads) is kept
 * for "show every step". The chain's last event is always a key step: it is this object's own creation.
 */
export function isKeyStep(e: TraceEvent, i: number, chain: readonly TraceEvent[]): boolean {
  if (i === chain.length - 1) return true;
  if (plumbing.has(e.kind)) return false;
  if (e.kind === 'api.request') return !['get', 'list', 'watch'].includes(str(e.data.verb));
  return e.kind !== 'custom' || str(e.data.event) !== 'informer.delta';
}
