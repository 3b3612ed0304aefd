// Real-world input: every manifest from the Kubernetes docs in ../shared/manifests is sent as a dry-run create,
// the way `kubectl create --dry-run=server -f` does, to a fresh cluster. Each document must be accepted exactly
// when a v1.32 API server accepts it, and otherwise refused with the server's (or kubectl's mapper's) text.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../control-plane/cluster';
import { unknownKindError } from '../control-plane/apiserver/decode/decoder';
import { parseManifests } from '../shared/lib/yaml';
import { isStatusError } from '../shared/api/status';
import { parseApiVersion, type KubeObject } from '../shared/api/types';

const manifestsDir = join(__dirname, '../../../shared/manifests');

function manifestFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((entry) => {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) return manifestFiles(path);
      return /\.(ya?ml|json)$/.test(entry) ? [path] : [];
    })
    .sort();
}

/**
 * Documents a v1.32 server refuses on a fresh cluster, with the text it (or kubectl's REST mapper) gives.
 * Keyed by "<file>#<document index>". Everything else must be accepted.
 */
const expectedRefusals: Record<string, string> = {
  // batch/v1beta1 CronJob was removed in v1.25.
  'application/job/cronjob.yaml#0': 'no matches for kind "CronJob" in version "batch/v1beta1"',
  // Custom resources before their CustomResourceDefinition exists.
  'customresourcedefinition/shirt-resources.yaml#0': 'no matches for kind "Shirt" in version "stable.example.com/v1"',
  'customresourcedefinition/shirt-resources.yaml#1': 'no matches for kind "Shirt" in version "stable.example.com/v1"',
  'customresourcedefinition/shirt-resources.yaml#2': 'no matches for kind "Shirt" in version "stable.example.com/v1"',
  // Objects in namespaces a fresh cluster does not have.
  'pods/qos/qos-pod.yaml#0': 'namespaces "qos-example" not found',
  'access/simple-rolebinding-with-clusterrole.yaml#0': 'namespaces "development" not found',
};

/** What kubectl does with one manifest object: map kind → resource, default the namespace, send the create. */
function create(cluster: Cluster, obj: KubeObject, dryRun: boolean): KubeObject {
  const { group, version } = parseApiVersion(obj.apiVersion);
  const rt = cluster.registry.forKind({ group, version, kind: obj.kind });
  if (!rt) throw unknownKindError(obj.apiVersion, obj.kind);
  const namespace = rt.namespaced ? (obj.metadata?.namespace ?? 'default') : undefined;
  const res = cluster.apiserver.handle({
    verb: 'create',
    group,
    version,
    resource: rt.resource,
    namespace,
    body: obj,
    options: { dryRun, fieldValidation: 'Strict' },
  });
  return res.body as KubeObject;
}

function outcome(cluster: Cluster, obj: KubeObject, dryRun = true): string {
  try {
    create(cluster, obj, dryRun);
    return 'accepted';
  } catch (err) {
    if (isStatusError(err)) return err.status.message;
    throw err;
  }
}

async function freshCluster(): Promise<Cluster> {
  const cluster = await createCluster({ seed: 7 });
  cluster.runUntilIdle({ maxTimeMs: 5_000 }); // let the serviceaccount controller create the default accounts
  return cluster;
}

describe.runIf(existsSync(manifestsDir))('manifests from the Kubernetes docs', () => {
  const files = existsSync(manifestsDir) ? manifestFiles(manifestsDir) : [];

  it('finds the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files.map((f) => [relative(manifestsDir, f), f]))('%s: dry-run create as a v1.32 server would', async (name, path) => {
    const cluster = await freshCluster();
    const docs = parseManifests(readFileSync(path, 'utf8'));
    expect(docs.length).toBeGreaterThan(0);
    docs.forEach((doc, i) => {
      expect(doc.error, `${name}#${i} parses`).toBeUndefined();
      const expected = expectedRefusals[`${name}#${i}`] ?? 'accepted';
      expect(outcome(cluster, doc.object as KubeObject), `${name}#${i}`).toBe(expected);
    });
    // Dry run stores nothing.
    const after = cluster.store.revision;
    docs.forEach((doc) => outcome(cluster, doc.object as KubeObject));
    expect(cluster.store.revision).toBe(after);
    await cluster.close();
  });

  it('accepts the custom resources once their CustomResourceDefinition is established', async () => {
    const cluster = await freshCluster();
    const read = (f: string) => parseManifests(readFileSync(join(manifestsDir, f), 'utf8')).map((d) => d.object as KubeObject);
    for (const crd of read('customresourcedefinition/shirt-resource-definition.yaml')) create(cluster, crd, false);
    cluster.runUntilIdle({ maxTimeMs: 5_000 });
    for (const shirt of read('customresourcedefinition/shirt-resources.yaml')) expect(outcome(cluster, shirt)).toBe('accepted');
    await cluster.close();
  });

  it('accepts objects once their namespace exists', async () => {
    const cluster = await freshCluster();
    for (const ns of ['qos-example', 'development']) {
      create(cluster, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, false);
    }
    cluster.runUntilIdle({ maxTimeMs: 5_000 });
    const read = (f: string) => parseManifests(readFileSync(join(manifestsDir, f), 'utf8')).map((d) => d.object as KubeObject);
    for (const obj of [...read('pods/qos/qos-pod.yaml'), ...read('access/simple-rolebinding-with-clusterrole.yaml')]) {
      expect(outcome(cluster, obj)).toBe('accepted');
    }
    await cluster.close();
  });
});
