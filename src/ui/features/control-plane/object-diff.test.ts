import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import { nginxManifest } from './headless-trace.fixture';
import { changeAt, formatChange, objectChanges, shortValue } from './object-diff';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const getNginx = async (cluster: HeadlessCluster) =>
  (await cluster.client.call('api/request', { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', name: 'nginx' })).body as KubeObject;

describe('objectChanges', () => {
  it("shows what kubectl apply changed in a real Deployment: replicas and the image, not the resourceVersion", async () => {
    h = await createHeadlessCluster({ seed: 2 });
    await h.client.call('api/apply', { manifest: nginxManifest });
    const before = await getNginx(h);
    await h.client.call('api/apply', { manifest: nginxManifest.replace('replicas: 3', 'replicas: 2').replace(/image: nginx:[\w.]+/, 'image: nginx:1.28') });
    const after = await getNginx(h);
    expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
    const lines = objectChanges(before, after).map(formatChange);
    expect(lines).toContain('spec.replicas: 3 → 2');
    expect(lines.some((l) => /^spec\.template\.spec\.containers\[0\]\.image: "nginx:[\w.]+" → "nginx:1\.28"$/.test(l))).toBe(true);
    expect(lines).toContain(`metadata.generation: ${before.metadata.generation} → ${after.metadata.generation}`);
    expect(lines.some((l) => l.startsWith('metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]: '))).toBe(true);
    expect(lines.some((l) => l.includes('resourceVersion'))).toBe(false);
  });

  it('marks added and removed fields, compares arrays by index and stops at the limit', () => {
    const a = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { old: 'y' } }, data: { k: '1' } } as KubeObject;
    const b = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'z' } }, data: { k: '1', list: ['a'] } } as unknown as KubeObject;
    expect(objectChanges(a, b).map(formatChange)).toEqual(['+ data.list: ["a"]', '+ metadata.labels["app.kubernetes.io/name"]: "z"', '- metadata.labels.old: "y"']);
    expect(objectChanges(a, b, 1)).toHaveLength(1);
    expect(objectChanges(a, a)).toEqual([]);
    expect(shortValue('x'.repeat(200)).length).toBe(60);
  });
});

describe('changeAt', () => {
  const v = (rv: number, replicas: number) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', resourceVersion: String(rv) }, spec: { replicas } }) as KubeObject;

  it('diffs the version at the revision against the one before; a squashed version says so', () => {
    const versions = [v(10, 1), v(12, 2), v(15, 5)];
    expect(changeAt(versions, 12)).toEqual({ changes: [{ path: 'spec.replicas', op: 'change', before: '1', after: '2' }], from: '10', to: '12', exact: true });
    expect(changeAt(versions, 14)).toMatchObject({ from: '12', to: '15', exact: false });
    // Not seen yet, or no version before it: nothing to compare.
    expect(changeAt(versions, 16)).toBeUndefined();
    expect(changeAt(versions, 10)).toBeUndefined();
  });
});
