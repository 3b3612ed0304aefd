// The UI ⇄ worker request/reply contract as one typed method map (actualbudget's Handlers pattern): the worker
// implements every entry, the client's call() is typed by it. Params and results are plain JSON.
import type { ApiRequest, ApiResponse, UserInfo } from '../api/request';
import type { ResourceType } from '../api/resources';
import type { Status } from '../api/status';
import type { KubeObject } from '../api/types';
import type { TrafficParams, TrafficResult, WorkloadLoad } from './network';
import type { PlaygroundLimitsView } from './limits';
import type { ClusterExport, StorageStatus } from './storage';
import type { ClusterSettings, ClusterSettingsView, ComponentsSnapshot, DecisionsParams, SchedulingDecisionView, WhyParams, WhyResult } from './introspection';

export const SimAction = { Pause: 'pause', Resume: 'resume', Step: 'step', Speed: 'speed' } as const;
export type SimAction = (typeof SimAction)[keyof typeof SimAction];

export interface SimCommand {
  action: SimAction;
  /** For 'speed': simulated seconds per real second, 0.25–50. */
  speed?: number;
}

export interface SimState {
  /** Simulated time, ms since the epoch. */
  time: number;
  paused: boolean;
  speed: number;
  /** False when nothing drives the clock from real time (a headless cluster: tests drive it). */
  realtime: boolean;
  /** The last error a timer or deferred task threw (the simulation keeps running). */
  lastError?: string;
}

export interface ApplyParams {
  /** One or more YAML (or JSON) documents separated by `---`. */
  manifest: string;
  /** Namespace for namespaced objects that name none (kubectl's -n); "default" when omitted. */
  namespace?: string;
}

/** One document's outcome, in document order, like kubectl's `configmap/demo created` lines. */
export type ApplyOutcome =
  | { ok: true; action: 'created' | 'configured' | 'unchanged'; object: KubeObject; warnings?: string[] }
  | { ok: false; status: Status; /** 1-based position of the document in the manifest. */ document: number; line?: number; column?: number };

export interface ApplyResult {
  outcomes: ApplyOutcome[];
}

export interface DiscoveryResult {
  resources: ResourceType[];
}

export interface ClusterInfo {
  protocolVersion: number;
  /** The store's current revision. */
  revision: number;
  /** The highest revision known durable, when a persistence is attached. */
  durableRevision?: number;
  persistence: 'indexeddb' | 'memory' | 'none';
  user: UserInfo;
}

/** A simulated machine to add: any field left out gets the default node's (4 cpu, 8Gi, 110 pods, next name and zone). */
export interface SimNodeSpec {
  name?: string;
  cpu?: string;
  memory?: string;
  pods?: number;
  zone?: string;
  labels?: Record<string, string>;
  taints?: { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' }[];
}

/** A fault anyone can inject into the simulation (the UI's chaos buttons). */
export type Fault =
  /** The machine dies: its kubelet stops (no heartbeats) and its containers are gone. */
  | { kind: 'kill-node'; node: string }
  /** The machine boots again (or is rebooted): the kubelet re-registers and drops pods the API server no longer has. */
  | { kind: 'restart-node'; node: string }
  /** Cuts (on: true) or heals (on: false) the node's network to the API server; its containers keep running. */
  | { kind: 'partition-node'; node: string; on: boolean }
  | { kind: 'add-node'; node?: SimNodeSpec }
  /** The machine is decommissioned: kubelet stopped and its Node object deleted. */
  | { kind: 'remove-node'; node: string }
  /** Nothing reaches the API server: every component's requests fail and its watches end. */
  | { kind: 'stop-apiserver' }
  | { kind: 'start-apiserver' }
  /** kube-controller-manager crashes and restarts: caches and queues lost, everything relisted. */
  | { kind: 'restart-controller-manager' }
  | { kind: 'restart-scheduler' };

export type FaultKind = Fault['kind'];

/** Which faults are in effect. */
export interface FaultState {
  apiServer: 'serving' | 'stopped';
  controllerManager: 'running' | 'stopped';
  scheduler: 'running' | 'stopped' | 'absent';
  nodes: { name: string; running: boolean; reachable: boolean }[];
}

export interface FaultResult {
  state: FaultState;
  /** add-node: the name the new node got. */
  node?: string;
}

/** kubectl drain's flags. */
export interface DrainFlags {
  force?: boolean;
  ignoreDaemonSets?: boolean;
  deleteEmptyDirData?: boolean;
  /** Negative (the default): each pod's own terminationGracePeriodSeconds. */
  gracePeriodSeconds?: number;
  /** 0 (the default): wait for ever. */
  timeoutSeconds?: number;
  podSelector?: string;
  disableEviction?: boolean;
  skipWaitForDeleteTimeoutSeconds?: number;
}

/** kubectl cordon / uncordon / drain NODE, as the current user. */
export type NodeCommand = { command: 'cordon' | 'uncordon'; node: string } | { command: 'drain'; node: string; flags?: DrainFlags };

/** A command's terminal output, line by line, and its exit code (0 success, 1 error). */
export interface CommandOutput {
  lines: { stream: 'stdout' | 'stderr'; text: string }[];
  exitCode: number;
}

/** The part of ~/.kube/config the console keeps (src/kubectl/cli/command.ts KubeConfig), persisted by the page. */
export interface KubeconfigState {
  currentContext: string;
  contexts: { name: string; cluster: string; user: string; namespace?: string }[];
}

export interface KubectlRunParams {
  /** Chosen by the page; names the run in 'kubectl/output', 'kubectl/edit', 'kubectl/cancel' and 'kubectl/edited'. */
  id: string;
  /** What the user typed: `kubectl get pods`, several lines, a heredoc. */
  line: string;
  kubeconfig: KubeconfigState;
  /** The editor's text, for `apply -f` / `create -f` naming the editor. */
  editorBuffer?: string;
  /** Files the page offers to -f by name: the samples gallery as `samples/<id>.yaml`. */
  files?: Record<string, string>;
}

/** A flag as the console's completion knows it. */
export interface KubectlFlagInfo {
  name: string;
  shorthand?: string;
  type: 'bool' | 'string' | 'int' | 'duration' | 'stringArray' | 'stringSlice';
}

/** The console's completion data: every kubectl command path kubeplay runs (groups included), with its flags. */
export interface KubectlCatalog {
  commands: { path: string[]; aliases: string[]; short: string; runnable: boolean; flags: KubectlFlagInfo[] }[];
  globalFlags: KubectlFlagInfo[];
}

export interface KubectlRunResult {
  exitCode: number;
  /** The kubeconfig after the command (config set-context / use-context change it). */
  kubeconfig: KubeconfigState;
}

export interface Methods {
  /** Any API request through the full pipeline. Mutations reply only once their revision is durable. */
  'api/request': (req: ApiRequest) => ApiResponse;
  /** Creates or updates every object in a manifest (a replace-style apply; server-side apply comes later). */
  'api/apply': (params: ApplyParams) => ApplyResult;
  /** The served resource types, like `kubectl api-resources`. */
  'api/discovery': () => DiscoveryResult;
  'sim/control': (cmd: SimCommand) => SimState;
  'sim/state': () => SimState;
  /** Injects a fault (kill/restart/partition/add/remove a node, stop/start the API server, crash a component). */
  'sim/fault': (fault: Fault) => FaultResult;
  /** The faults in effect. */
  'sim/faults': () => FaultState;
  /**
   * kubectl cordon/uncordon/drain as the current user, through the API server (it fails while that is stopped).
   * drain replies when it finishes, as virtual time runs (evictions, PDB retries every 5 s, graceful termination).
   */
  'kubectl/node': (cmd: NodeCommand) => CommandOutput;
  /**
   * Runs a console line as kubectl, as the current user through the API server endpoint. Output streams as
   * 'kubectl/output' messages while it runs; the reply comes when it exits (after Ctrl+C for a watch).
   */
  'kubectl/run': (params: KubectlRunParams) => KubectlRunResult;
  /** The commands and flags kubectl knows, for the console's tab completion. */
  'kubectl/catalog': () => KubectlCatalog;
  /** Ctrl+C for a running 'kubectl/run'. */
  'kubectl/cancel': (params: { id: string }) => void;
  /** The page's answer to a 'kubectl/edit' message: the edited YAML, or null when the user cancelled. */
  'kubectl/edited': (params: { id: string; yaml: string | null }) => void;
  /** The components' state for the Control plane view: queues, scheduler, kubelets, informers, etcd revision. */
  'sim/components': () => ComponentsSnapshot;
  /** The scheduler's recorded attempts for one pod, oldest first (per node: filtered by which plugin, or scores). */
  'sim/decisions': (params: DecisionsParams) => SchedulingDecisionView[];
  /** "Why does this exist?": the causal chain of trace events that created the object. */
  'trace/why': (params: WhyParams) => WhyResult;
  /** The demo-timing settings in effect, each with its real default. */
  'cluster/settings': () => ClusterSettingsView;
  /** Changes some settings; they apply at once and persist with the cluster. */
  'cluster/configure': (params: Partial<ClusterSettings>) => ClusterSettingsView;
  /** kubeplay's playground-wide caps with the current usage (src/worker/limits.ts). */
  'cluster/limits': () => PlaygroundLimitsView;
  /** Sends one HTTP request through the simulated data plane (DNS, kube-proxy, Ingress, NetworkPolicy) and answers what came back. */
  'net/request': (params: TrafficParams) => TrafficResult;
  /** Sets one workload's simulated load (0 removes it); answers every load in effect. Persists with the cluster. */
  'sim/load': (params: WorkloadLoad) => WorkloadLoad[];
  /** The simulated loads in effect. */
  'sim/loads': () => WorkloadLoad[];
  /** Wipes the persisted cluster and starts a fresh one; open watches relist against it. */
  'cluster/reset': () => void;
  'cluster/info': () => ClusterInfo;
  /** Makes everything written so far durable (the page calls it on pagehide / when hidden). */
  'cluster/flush': () => void;
  /** Whether the cluster's storage is healthy (the page polls it: a full disk makes the cluster read-only). */
  'storage/status': () => StorageStatus;
  /** Tries to save what is pending again; clears the full-disk alarm when that works. */
  'storage/retry': () => StorageStatus;
  /** Every user object as one YAML List, for "Export cluster" (importing goes through 'api/apply'). */
  'cluster/export': () => ClusterExport;
}

export type MethodName = keyof Methods;
export type MethodParams<M extends MethodName> = Parameters<Methods[M]> extends [infer P] ? P : undefined;
export type MethodResult<M extends MethodName> = ReturnType<Methods[M]>;
