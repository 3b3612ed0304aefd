// The UI ⇄ worker request/reply contract as one typed method map (actualbudget's Handlers pattern): the worker
// implements every entry, the client's call() is typed by it. Params and results are plain JSON.
import type { ApiRequest, ApiResponse, UserInfo } from '../api/request';
import type { ResourceType } from '../api/resources';
import type { Status } from '../api/status';
import type { KubeObject } from '../api/types';

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

export interface Methods {
  /** Any API request through the full pipeline. Mutations reply only once their revision is durable. */
  'api/request': (req: ApiRequest) => ApiResponse;
  /** Creates or updates every object in a manifest (a replace-style apply; server-side apply comes later). */
  'api/apply': (params: ApplyParams) => ApplyResult;
  /** The served resource types, like `kubectl api-resources`. */
  'api/discovery': () => DiscoveryResult;
  'sim/control': (cmd: SimCommand) => SimState;
  'sim/state': () => SimState;
  /** Wipes the persisted cluster and starts a fresh one; open watches relist against it. */
  'cluster/reset': () => void;
  'cluster/info': () => ClusterInfo;
  /** Makes everything written so far durable (the page calls it on pagehide / when hidden). */
  'cluster/flush': () => void;
}

export type MethodName = keyof Methods;
export type MethodParams<M extends MethodName> = Parameters<Methods[M]> extends [infer P] ? P : undefined;
export type MethodResult<M extends MethodName> = ReturnType<Methods[M]>;
