// The API request and response shapes: what a client (the page, kubectl, a controller) sends to the API server.
// Shared because the worker protocol carries them; the API server's own contracts are in
// src/control-plane/apiserver/types.ts.

export const Verb = {
  Create: 'create',
  Get: 'get',
  List: 'list',
  Watch: 'watch',
  Update: 'update',
  Patch: 'patch',
  Delete: 'delete',
  DeleteCollection: 'deletecollection',
} as const;
export type Verb = (typeof Verb)[keyof typeof Verb];

export const PatchType = {
  JSONPatch: 'application/json-patch+json',
  MergePatch: 'application/merge-patch+json',
  StrategicMergePatch: 'application/strategic-merge-patch+json',
  ApplyPatch: 'application/apply-patch+yaml',
} as const;
export type PatchType = (typeof PatchType)[keyof typeof PatchType];

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** The admin a fresh playground acts as: like kubeadm's kubernetes-admin, a member of system:masters. */
export const defaultAdminUser: UserInfo = {
  username: 'kubernetes-admin',
  groups: ['system:masters', 'system:authenticated'],
};

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy | string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface ApiRequest {
  verb: Verb;
  group: string;
  version: string;
  resource: string;
  subresource?: 'status' | 'scale' | 'binding' | 'finalize' | 'eviction';
  /** Namespace in the URL; empty/undefined for cluster-scoped resources or all-namespace lists. */
  namespace?: string;
  name?: string;
  /** Decoded body for create/update (an object) and patch (the patch document). */
  body?: unknown;
  /**
   * The body as the client sent it (JSON or YAML text). When present the decoder reads it instead of body, so
   * duplicate fields can be reported as the strict decoder does.
   */
  rawBody?: string;
  patchType?: PatchType;
  /** The acting user as the client claims it (the authentication stage decides); undefined = the current user. */
  user?: UserInfo;
  /** The client's User-Agent header ("kubelet/v1.32.0 (linux/amd64) kubernetes/70d3cc9"); its connection sets it. */
  userAgent?: string;
  /** Impersonation (kubectl --as / --as-group). */
  impersonate?: { username: string; groups?: string[] };
  options?: {
    dryRun?: boolean;
    fieldValidation?: FieldValidation;
    fieldManager?: string;
    force?: boolean;
    labelSelector?: string;
    fieldSelector?: string;
    resourceVersion?: string;
    resourceVersionMatch?: 'Exact' | 'NotOlderThan';
    limit?: number;
    continue?: string;
    allowWatchBookmarks?: boolean;
    sendInitialEvents?: boolean;
    /**
     * Accept: application/json;as=Table;v=v1;g=meta.k8s.io — get, list and watch answer with a meta.k8s.io/v1
     * Table (src/control-plane/apiserver/printers/table.ts) printed by the server, as kubectl get asks.
     */
    as?: 'Table';
    /** With as=Table: what each row carries (default Metadata: a PartialObjectMetadata). */
    includeObject?: 'None' | 'Metadata' | 'Object';
  } & DeleteOptions;
}

export interface ApiResponse<T = unknown> {
  /** HTTP status code the real server would answer with (200, 201, 202 for a graceful delete, …). */
  code: number;
  body: T;
  warnings?: string[];
}
