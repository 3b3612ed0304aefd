// What the page may ask the worker about the running components (not API objects): the control plane's shape
// and queues for the Control plane view, the scheduler's per-node decisions for the inspector, the causal chain
// behind an object, and the demo-timing settings. Plain JSON, small, polled or asked for on demand.
import type { TraceEvent } from './trace';

/** One client-go work queue (a controller may have several; the garbage collector has two). */
export interface WorkQueueView {
  name: string;
  /** Keys waiting, in order (at most the first 20; depth has the full count). */
  keys: string[];
  depth: number;
  /** Keys being reconciled right now. */
  processing: number;
  /** Keys waiting for a delay (rate-limited retries, addAfter). */
  waiting: number;
  /** Keys with failed attempts not yet forgotten, and how many (at most 20). */
  retries: { key: string; requeues: number }[];
}

export interface ControllerView {
  /** kube-controller-manager's name for it: "deployment-controller", "replicaset-controller", … */
  name: string;
  queues: WorkQueueView[];
}

export interface InformerView {
  /** "pods", "apps/deployments", … (group/resource, core group bare). */
  resource: string;
  /** Who runs it: "kube-controller-manager", "kube-scheduler", "kubelet/node-1". */
  owner: string;
  synced: boolean;
  /** Objects in its cache. */
  items: number;
}

export interface SchedulerView {
  running: boolean;
  /** Pod keys (namespace/name) per sub-queue, at most 20 each; counts are full. */
  activeQ: string[];
  backoffQ: string[];
  unschedulable: string[];
  counts: { active: number; backoff: number; unschedulable: number; inFlight: number };
  /** The latest scheduling attempt, if any. */
  lastDecision?: SchedulingDecisionView;
}

export interface KubeletView {
  node: string;
  /** The machine is up (not killed). */
  running: boolean;
  /** Its network reaches the API server (not partitioned). */
  reachable: boolean;
  /** Pods the kubelet is running or starting. */
  pods: number;
}

export interface ComponentsSnapshot {
  /** Simulated time of the snapshot, ms. */
  time: number;
  apiServer: { serving: boolean };
  etcd: { revision: number; /** Keys in the store. */ keys: number };
  controllerManager: { running: boolean; controllers: ControllerView[] };
  scheduler?: SchedulerView;
  kubelets: KubeletView[];
  informers: InformerView[];
  /** seq of the newest trace event when the snapshot was taken (tokens older than it are already reflected). */
  traceSeq: number;
}

// ---------------------------------------------------------------- scheduler decisions (mirrors scheduler/decisions.ts)

export interface NodeDecisionView {
  node: string;
  /** The filter plugin that rejected the node, and its reasons. */
  filtered?: { plugin: string; code: string; reasons: string[] };
  scores?: { plugin: string; raw: number; score: number; weight: number }[];
  total?: number;
  chosen?: boolean;
}

export interface SchedulingDecisionView {
  /** namespace/name */
  pod: string;
  uid: string;
  attempt: number;
  cycle: number;
  time: number;
  result: 'Scheduled' | 'Unschedulable' | 'Error';
  node?: string;
  bound?: boolean;
  message?: string;
  nominatedNode?: string;
  numAllNodes: number;
  evaluatedNodes: number;
  feasibleNodes: number;
  nodes: NodeDecisionView[];
}

export interface DecisionsParams {
  namespace: string;
  name: string;
}

// ---------------------------------------------------------------- why does this exist?

export interface WhyParams {
  group: string;
  resource: string;
  namespace?: string;
  name: string;
  /** The object's uid: the chain is for this incarnation (a recreated object of the same name has another). */
  uid?: string;
}

export interface WhyResult {
  /**
   * The chain, root cause first: e.g. the user's api.request (create deployment) → its store.commit → the
   * watch delivery to the deployment controller's informer → queue/reconcile → the controller's create of the
   * ReplicaSet → … → the create of this object. Empty when the trace no longer holds it.
   */
  chain: TraceEvent[];
  /** False when the chain reaches the start of the trace buffer (or the page reloaded since) before a root. */
  complete: boolean;
  /** When chain is empty or incomplete: why, in a sentence for the page. */
  note?: string;
}

// ---------------------------------------------------------------- demo timings

/** Timings a teacher may shorten for a demo. Each has the real default beside it in ClusterSettingsView. */
export interface ClusterSettings {
  /** kube-controller-manager --node-monitor-grace-period, seconds. Real default 40. */
  nodeMonitorGracePeriodSeconds: number;
  /**
   * kube-apiserver DefaultTolerationSeconds admission: --default-not-ready-toleration-seconds and
   * --default-unreachable-toleration-seconds, seconds. Real default 300.
   */
  defaultTolerationSeconds: number;
  /** How long a simulated image pull takes, seconds (not a Kubernetes flag). Default 0: by image size (~40 MB/s + a manifest round trip). */
  imagePullSeconds: number;
  /** kubelet --node-status-update-frequency, seconds. Real default 10. */
  nodeStatusUpdateFrequencySeconds: number;
}

export interface ClusterSettingView {
  key: keyof ClusterSettings;
  value: number;
  /** The value Kubernetes (or the simulator, for non-Kubernetes settings) uses by default. */
  defaultValue: number;
  /** Whether defaultValue is Kubernetes' own default (vs. the simulator's). */
  kubernetesDefault: boolean;
  min: number;
  max: number;
  /** The flag or setting it stands for, e.g. "kube-controller-manager --node-monitor-grace-period". */
  flag: string;
  description: string;
}

export interface ClusterSettingsView {
  settings: ClusterSettingView[];
}
