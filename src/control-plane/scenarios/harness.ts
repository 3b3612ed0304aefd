// Shared helpers of the whole-cluster scenarios: a booted cluster (nodes Ready, default ServiceAccounts in
// place), manifests applied as kubectl would, and the read-backs the scenarios assert on (pods of a selector,
// events of an object, pod readiness). Everything runs on virtual time.
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Event, Pod } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../shared/api/types';
import { parseManifests } from '../../shared/lib/yaml';
import type { ClusterOptions } from '../cluster';
import { StoreEventType, type RevisionBatch, type StoreWatch } from '../store/types';
import { TestCluster } from '../testing/test-cluster';

/** A fresh cluster whose nodes are registered and Ready and whose "default" namespace has its ServiceAccount. */
export async function bootCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const tc = await TestCluster.create({ seed: 1, ...options });
  const nodeCount = tc.cluster.nodes.names().length;
  tc.runUntil(
    () =>
      tc.client.nodes.list().items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length === nodeCount &&
      tc.get('serviceaccount', 'default', 'default') !== undefined,
    60_000,
    'nodes Ready and the default ServiceAccount',
  );
  return tc;
}

/** The objects of a YAML text (several documents, List kinds flattened), as kubectl reads them. */
export function objectsOf(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const doc of parseManifests(text)) {
    if (doc.error) throw new Error(`error parsing manifest (line ${doc.error.line}): ${doc.error.message}`);
    const obj = doc.object as KubeObject | null | undefined;
    if (!obj) continue;
    if (obj.kind === 'List' || obj.kind?.endsWith('List')) out.push(...(((obj as unknown as { items?: KubeObject[] }).items) ?? []));
    else out.push(obj);
  }
  return out;
}

export function isTerminating(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined;
}

export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function condition<T extends { type: string }>(conditions: readonly T[] | undefined, type: string): T | undefined {
  return conditions?.find((c) => c.type === type);
}

/** Pods of a namespace matching an equality label selector ("app=nginx"). */
export function podsOf(tc: TestCluster, namespace: string, labelSelector: string): Pod[] {
  return tc.client.pods.list({ namespace, labelSelector }).items;
}

/** Events about one object, oldest first (as kubectl describe lists them). */
export function eventsFor(tc: TestCluster, kind: string, name: string, namespace = 'default'): Event[] {
  return tc.client.events
    .list({ namespace })
    .items.filter((e) => e.involvedObject.kind === kind && e.involvedObject.name === name)
    .sort((a, b) => eventTime(a).localeCompare(eventTime(b)) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

function eventTime(e: Event): string {
  return e.firstTimestamp ?? e.eventTime ?? '';
}

/** deploymentutil.DeploymentComplete plus observedGeneration: what `kubectl rollout status` waits for. */
export function rolloutComplete(d: Deployment | undefined): boolean {
  if (!d) return false;
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  return (
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    (s.updatedReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want
  );
}

/**
 * Follows the store revision by revision (an etcd watch from the current revision) and keeps a mirror of the
 * objects under a key prefix, so a scenario can assert an invariant on the state AT EVERY REVISION — not only on
 * the states a polling loop happens to see. check() runs after each revision's batch is applied to the mirror.
 */
export class RevisionMonitor {
  readonly objects = new Map<string, KubeObject>();
  revisions = 0;
  private readonly watch: StoreWatch;

  constructor(
    tc: TestCluster,
    prefix: string,
    private readonly check: (objects: ReadonlyMap<string, KubeObject>, revision: number) => void,
  ) {
    const store = tc.cluster.store;
    const start = store.range(prefix);
    for (const kv of start.kvs) this.objects.set(kv.key, kv.value);
    this.watch = store.watch({ afterRevision: start.revision, prefix }, (batch) => this.apply(batch));
  }

  private apply(batch: RevisionBatch): void {
    for (const e of batch.events) {
      if (e.type === StoreEventType.Delete) this.objects.delete(e.kv.key);
      else this.objects.set(e.kv.key, e.kv.value);
    }
    this.revisions++;
    this.check(this.objects, batch.revision);
  }

  stop(): void {
    this.watch.cancel();
  }
}
