// Object shapes shared by the control plane, the worker protocol and the UI.
// Typed objects come from kubernetes-types; the control plane mostly handles them generically.
import type { ObjectMeta, ListMeta, OwnerReference, LabelSelector } from 'kubernetes-types/meta/v1';

export type { ObjectMeta, ListMeta, OwnerReference, LabelSelector };

/** Any API object as it is stored and served: plain JSON, never class instances. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string; // e.g. "PodList"
  metadata: ListMeta;
  items: T[];
}

export interface GroupVersionKind {
  group: string; // "" for the core group
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string; // plural, lower case: "deployments"
}

export interface GroupResource {
  group: string;
  resource: string;
}

/** "apps/v1" → {group:"apps", version:"v1"}; "v1" → {group:"", version:"v1"}. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function formatApiVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** "deployments.apps", or "pods" for the core group: the form Kubernetes puts in error messages. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** "Deployment.apps", or "Pod" for the core group. */
export function groupKindString(gk: { group: string; kind: string }): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

export const WatchEventType = {
  Added: 'ADDED',
  Modified: 'MODIFIED',
  Deleted: 'DELETED',
  Bookmark: 'BOOKMARK',
  Error: 'ERROR',
} as const;
export type WatchEventType = (typeof WatchEventType)[keyof typeof WatchEventType];

/** A watch event as the API server sends it. For ERROR, object is a Status. */
export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T;
}
