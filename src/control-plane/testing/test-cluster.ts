// TestCluster: the harness scenario tests drive a whole in-process cluster with. Time is virtual; helpers
// apply manifests, read objects by the names kubectl accepts, and run the clock until something holds.
//
//   const tc = await TestCluster.create();
//   tc.apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}`);
//   tc.runUntil(() => tc.get('serviceaccount', 'team-a', 'default') !== undefined);
//   await tc.close();
import type { ResourceType } from '../../shared/api/resources';
import { StatusError, StatusReason, isStatusError, newBadRequest } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { parseApiVersion } from '../../shared/api/types';
import { parseManifests } from '../../shared/lib/yaml';
import type { ResourceClient } from '../client/client';
import { createCluster, type Cluster, type ClusterOptions } from '../cluster';

export interface ApplyOptions {
  /** Namespace for namespaced objects that name none. Default "default". */
  namespace?: string;
}

export class TestCluster {
  private constructor(readonly cluster: Cluster) {}

  static async create(options: ClusterOptions = {}): Promise<TestCluster> {
    return new TestCluster(await createCluster(options));
  }

  get client() {
    return this.cluster.client;
  }

  get clock() {
    return this.cluster.clock;
  }

  get trace() {
    return this.cluster.trace;
  }

  /** The resource type for a name kubectl accepts: "deploy", "pods", "Deployment", "deployments.apps". */
  resourceType(kind: string): ResourceType {
    const [rt] = this.cluster.registry.resolve(kind);
    if (!rt) throw new Error(`the server doesn't have a resource type "${kind}"`);
    return rt;
  }

  resourceClient(kind: string): ResourceClient {
    return this.client.resource(this.resourceType(kind));
  }

  /**
   * Creates each object, or updates it (with the live resourceVersion) when it exists: kubectl apply's effect
   * for the objects given. Accepts YAML/JSON text (several documents, List kinds) or objects. Returns the
   * objects as stored. Throws the first StatusError.
   */
  apply(input: string | KubeObject | KubeObject[], options: ApplyOptions = {}): KubeObject[] {
    const objects = typeof input === 'string' ? parseObjects(input) : Array.isArray(input) ? input : [input];
    return objects.map((obj) => this.applyOne(obj, options.namespace ?? 'default'));
  }

  private applyOne(obj: KubeObject, defaultNamespace: string): KubeObject {
    const { group, version } = parseApiVersion(obj.apiVersion);
    const rt = this.cluster.registry.forKind({ group, version, kind: obj.kind });
    if (!rt) throw new Error(`no matches for kind "${obj.kind}" in version "${obj.apiVersion}"`);
    const rc = this.client.resource({ group, version, resource: rt.resource });
    const namespace = rt.namespaced ? (obj.metadata?.namespace ?? defaultNamespace) : undefined;
    const body: KubeObject = rt.namespaced ? { ...obj, metadata: { ...obj.metadata, namespace } } : obj;
    try {
      return rc.create(body, { namespace });
    } catch (err) {
      if (!isStatusError(err, StatusReason.AlreadyExists) || !obj.metadata?.name) throw err;
    }
    const live = rc.get(obj.metadata.name, { namespace });
    return rc.update({ ...body, metadata: { ...body.metadata, resourceVersion: live.metadata.resourceVersion } }, { namespace });
  }

  /** The object, or undefined when it does not exist. namespace is ignored for cluster-scoped kinds. */
  get(kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const rt = this.resourceType(kind);
    try {
      return this.client.resource(rt).get(name, { namespace: rt.namespaced ? namespace : undefined });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return undefined;
      throw err;
    }
  }

  /** Objects of a kind, in one namespace or (namespace undefined) all. */
  list(kind: string, namespace?: string, labelSelector?: string): KubeObject[] {
    const rt = this.resourceType(kind);
    return this.client.resource(rt).list({ namespace: rt.namespaced ? namespace : undefined, labelSelector }).items;
  }

  delete(kind: string, namespace: string | undefined, name: string): void {
    const rt = this.resourceType(kind);
    this.client.resource(rt).delete(name, { namespace: rt.namespaced ? namespace : undefined });
  }

  /** Runs the clock until predicate() holds; throws (with `what`) when maxMs of virtual time pass first. */
  runUntil(predicate: () => boolean, maxMs = 10 * 60_000, what = 'condition'): void {
    if (!this.cluster.runUntil(predicate, maxMs)) throw new Error(`timed out after ${maxMs} ms of virtual time waiting for ${what}`);
  }

  /** Runs deferred work and timers until idle (or maxTimeMs passes). */
  settle(maxTimeMs?: number): void {
    this.cluster.runUntilIdle(maxTimeMs === undefined ? {} : { maxTimeMs });
  }

  advance(ms: number): void {
    this.cluster.advance(ms);
  }

  close(): Promise<void> {
    return this.cluster.close();
  }
}

function parseObjects(text: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const doc of parseManifests(text)) {
    if (doc.error) throw new StatusError(newBadRequest(`error parsing manifest (line ${doc.error.line}): ${doc.error.message}`).status);
    if (doc.object !== undefined && doc.object !== null) out.push(doc.object as KubeObject);
  }
  return out;
}
