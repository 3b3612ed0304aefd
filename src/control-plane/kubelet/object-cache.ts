// The kubelet's ConfigMap and Secret managers with the Watch change-detection strategy (KubeletConfiguration
// configMapAndSecretChangeDetectionStrategy, default Watch; pkg/kubelet/util/manager/watch_based_manager.go):
// while a pod on the node references an object, that object is watched by name (a reflector listing and
// watching with fieldSelector metadata.name=<name> in its namespace), and the kubelet reads it from that cache.
// Starting a pod therefore costs no GET per ConfigMap or Secret: the first pod on the node that references one
// lists and watches it, the others read what it brought, and the last one to go stops its watch.
import type { Pod, PodSpec } from 'kubernetes-types/core/v1';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { WatchEventType } from '../../shared/api/types';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import { Reflector } from '../informers/reflector';
import { deepFreeze } from '../../shared/lib/deep-freeze';
import type { Clock } from '../sim/clock';

export type ObjectKind = 'configmap' | 'secret';

/** What a read finds: the object, no such object, or a cache that never synced (the kubelet's error text). */
export type CachedObject = { object: KubeObject } | { notFound: true } | { error: string };

interface Item {
  readonly reflector: Reflector;
  object: KubeObject | undefined;
  synced: boolean;
  /** Pods (by uid) on this node that reference the object. */
  readonly pods: Set<string>;
}

/** What a read of a reference whose cache never synced says (the manager's WaitForCacheSync timing out). */
export function cacheSyncError(kind: ObjectKind): string {
  return `failed to sync ${kind} cache: timed out waiting for the condition`;
}

const keyOf = (kind: ObjectKind, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

export class WatchingObjectCache {
  private readonly items = new Map<string, Item>();

  constructor(private readonly options: { client: Client; clock: Clock; nodeName: string; trace?: TraceSink }) {}

  /**
   * RegisterPod: starts watching what the pod references that nothing on the node watches yet. What a pod
   * references is read from its spec again when it goes (the references are immutable; ephemeral containers only
   * add some), rather than kept per pod.
   */
  registerPod(pod: Pod): void {
    const uid = pod.metadata?.uid;
    const namespace = pod.metadata?.namespace ?? '';
    if (!uid) return;
    let first = true;
    for (const [kind, name] of referencedObjects(pod.spec)) {
      const key = keyOf(kind, namespace, name);
      const item = this.items.get(key);
      // Registered already: a pod is registered with all its references at once, so its first tells.
      if (first && item?.pods.has(uid)) return;
      first = false;
      (item ?? this.watch(key, kind, namespace, name)).pods.add(uid);
    }
  }

  /** UnregisterPod: stops the watches only this pod needed. */
  unregisterPod(pod: Pod): void {
    const uid = pod.metadata?.uid;
    const namespace = pod.metadata?.namespace ?? '';
    if (!uid) return;
    for (const [kind, name] of referencedObjects(pod.spec)) {
      const key = keyOf(kind, namespace, name);
      const item = this.items.get(key);
      if (!item || !item.pods.delete(uid) || item.pods.size > 0) continue;
      item.reflector.stop();
      this.items.delete(key);
    }
  }

  /**
   * GetObject: the cached object of a reference a registered pod holds; undefined for any other (the caller
   * reads that one from the API server, as the cache-based strategy would).
   */
  get(kind: ObjectKind, namespace: string, name: string): CachedObject | undefined {
    const item = this.items.get(keyOf(kind, namespace, name));
    if (!item) return undefined;
    if (!item.synced) return { error: cacheSyncError(kind) };
    return item.object ? { object: item.object } : { notFound: true };
  }

  /** The node stops: every watch ends and every registration is forgotten. */
  stop(): void {
    for (const item of this.items.values()) item.reflector.stop();
    this.items.clear();
  }

  /** Reconnected after a partition: list again at once rather than at the end of the backoff. */
  relist(): void {
    for (const item of this.items.values()) {
      item.reflector.stop();
      item.reflector.runNow();
    }
  }

  private watch(key: string, kind: ObjectKind, namespace: string, name: string): Item {
    const { client, clock, nodeName, trace } = this.options;
    const resource = kind === 'configmap' ? client.configMaps : client.secrets;
    const fieldSelector = `metadata.name=${name}`;
    const item: Item = {
      object: undefined,
      synced: false,
      pods: new Set(),
      reflector: new Reflector({
        name: `kubelet/${nodeName} ${kind === 'configmap' ? 'configmaps' : 'secrets'} ${namespace}/${name}`,
        clock,
        trace,
        listerWatcher: {
          list: () => resource.list({ namespace, fieldSelector }),
          watch: (resourceVersion, h) => resource.watch({ namespace, fieldSelector, resourceVersion, allowWatchBookmarks: true }, h),
        },
        store: {
          // Held frozen, as an informer's cache holds its objects: a change arrives as a new object, so what the
          // kubelet derives from one (its decoded data) can be kept beside it.
          replace: (items: KubeObject[]) => {
            item.object = items[0] && deepFreeze(items[0]);
            item.synced = true;
          },
          applyEvents: (events: WatchEvent[]) => {
            for (const ev of events) item.object = ev.type === WatchEventType.Deleted ? undefined : deepFreeze(ev.object);
          },
        },
      }),
    };
    this.items.set(key, item);
    // The pod worker waits for the cache to sync before it reads (WaitForCacheSync): in-process, the first list
    // is made now rather than on the next turn of the clock.
    item.reflector.runNow();
    return item;
  }
}

/**
 * The ConfigMaps and Secrets a pod spec names (podutil.VisitPodConfigmapNames / VisitPodSecretNames), in the
 * order those visit them. An array built in place: every pod the node starts is read through it.
 */
export function referencedObjects(spec: PodSpec | undefined): [ObjectKind, string][] {
  const out: [ObjectKind, string][] = [];
  if (!spec) return out;
  for (const s of spec.imagePullSecrets ?? []) if (s.name) out.push(['secret', s.name]);
  if (spec.initContainers) containerReferences(spec.initContainers, out);
  containerReferences(spec.containers, out);
  if (spec.ephemeralContainers) containerReferences(spec.ephemeralContainers as PodSpec['containers'], out);
  for (const v of spec.volumes ?? []) {
    if (v.configMap?.name) out.push(['configmap', v.configMap.name]);
    if (v.secret?.secretName) out.push(['secret', v.secret.secretName]);
    for (const src of v.projected?.sources ?? []) {
      if (src.configMap?.name) out.push(['configmap', src.configMap.name]);
      if (src.secret?.name) out.push(['secret', src.secret.name]);
    }
  }
  return out;
}

function containerReferences(containers: PodSpec['containers'], out: [ObjectKind, string][]): void {
  for (const c of containers) {
    for (const from of c.envFrom ?? []) {
      if (from.configMapRef?.name) out.push(['configmap', from.configMapRef.name]);
      if (from.secretRef?.name) out.push(['secret', from.secretRef.name]);
    }
    for (const e of c.env ?? []) {
      if (e.valueFrom?.configMapKeyRef?.name) out.push(['configmap', e.valueFrom.configMapKeyRef.name]);
      if (e.valueFrom?.secretKeyRef?.name) out.push(['secret', e.valueFrom.secretKeyRef.name]);
    }
  }
}
