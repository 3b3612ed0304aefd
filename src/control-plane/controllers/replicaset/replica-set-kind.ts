// One controller, two kinds: Kubernetes runs the ReplicationController manager as the ReplicaSet controller over
// an adapter (pkg/controller/replication converts RCs to RSs). Here the differences are this small table: the
// API resource, the ownerReference kind, the names in traces and events, and how the selector is read (an RS has
// a metav1.LabelSelector, an RC a plain map of labels).
import type { ReplicaSetCondition } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type { KubeObject, LabelSelector } from '../../../shared/api/types';
import type { Selector } from '../../../shared/lib/labels';
import { labelSelectorAsSelector, selectorFromSet } from '../../../shared/lib/labels';
import type { Client, ResourceClient } from '../../client/client';
import type { SharedInformerFactory } from '../../informers/factory';
import type { SharedInformer } from '../../informers/shared-informer';

export const ReplicaSetKindName = { ReplicaSet: 'ReplicaSet', ReplicationController: 'ReplicationController' } as const;
export type ReplicaSetKindName = (typeof ReplicaSetKindName)[keyof typeof ReplicaSetKindName];

export interface ReplicaSetStatusLike {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

/** A ReplicaSet or a ReplicationController, as the controller reads it. */
export interface ReplicaSetLike extends KubeObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelector | Record<string, string>;
    template?: PodTemplateSpec;
  };
  status?: ReplicaSetStatusLike;
}

export interface ReplicaSetKind {
  kind: ReplicaSetKindName;
  /** For ownerReferences. */
  gvk: { apiVersion: string; kind: string };
  /** Controller name in traces and the Events' source component. */
  controllerName: string;
  queueName: string;
  /** The selector; throws SelectorParseError when invalid. */
  selectorOf(obj: ReplicaSetLike): Selector;
  resourceClient(client: Client): ResourceClient<ReplicaSetLike>;
  informer(informers: SharedInformerFactory): SharedInformer<ReplicaSetLike>;
}

/**
 * Parsed selectors per (frozen) selector object: every sync and every orphan check reads the selector, and a
 * cached ReplicaSet keeps the same selector object until it is replaced. Invalid selectors are not cached (the
 * parse throws each time, as callers expect).
 */
const parsedSelectors = new WeakMap<object, Selector>();

function memoSelector(sel: object | undefined, parse: (sel: object | undefined) => Selector): Selector {
  if (!sel || !Object.isFrozen(sel)) return parse(sel);
  let parsed = parsedSelectors.get(sel);
  if (!parsed) parsedSelectors.set(sel, (parsed = parse(sel)));
  return parsed;
}

export const replicaSetKind: ReplicaSetKind = {
  kind: ReplicaSetKindName.ReplicaSet,
  gvk: { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  controllerName: 'replicaset-controller',
  queueName: 'replicaset',
  selectorOf: (obj) => memoSelector(obj.spec?.selector, (sel) => labelSelectorAsSelector(sel as LabelSelector | undefined)),
  resourceClient: (client) => client.replicaSets as unknown as ResourceClient<ReplicaSetLike>,
  informer: (informers) => informers.replicaSets as unknown as SharedInformer<ReplicaSetLike>,
};

export const replicationControllerKind: ReplicaSetKind = {
  kind: ReplicaSetKindName.ReplicationController,
  gvk: { apiVersion: 'v1', kind: 'ReplicationController' },
  controllerName: 'replication-controller',
  queueName: 'replicationmanager',
  // labels.Set(rc.Spec.Selector).AsSelectorPreValidated(); the API server defaults it from the template labels.
  selectorOf: (obj) => memoSelector(obj.spec?.selector, (sel) => selectorFromSet((sel as Record<string, string> | undefined) ?? {})),
  resourceClient: (client) => client.replicationControllers as unknown as ResourceClient<ReplicaSetLike>,
  informer: (informers) => informers.replicationControllers as unknown as SharedInformer<ReplicaSetLike>,
};

export function kindFor(name: ReplicaSetKindName | undefined): ReplicaSetKind {
  return name === ReplicaSetKindName.ReplicationController ? replicationControllerKind : replicaSetKind;
}
