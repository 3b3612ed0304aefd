import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

/** A whole cluster (controllers, scheduler, three kubelets) with nginx:1.14.2 × 3 rolled out. */
async function clusterWithNginx(): Promise<Cluster> {
  const c = await createCluster({ seed: 7 });
  c.runUntil(() => c.client.nodes.list().items.filter((n) => n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True')).length === 3, 120_000);
  expect((await kubectl(c, 'kubectl create deployment nginx --image=nginx:1.14.2 --replicas=3')).stdout).toBe('deployment.apps/nginx created\n');
  const status = await kubectl(c, 'kubectl rollout status deployment/nginx');
  expect(status.exitCode).toBe(0);
  return c;
}

function images(c: Cluster): string[] {
  return c.client.pods
    .list({ namespace: 'default', labelSelector: 'app=nginx' })
    .items.filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => p.spec!.containers[0].image!)
    .sort();
}

/** The distinct messages in order (kubectl prints one per watch event, so a message may repeat). */
function collapse(lines: string[]): string[] {
  return lines.filter((l, i) => i === 0 || l !== lines[i - 1]);
}

describe('kubectl rollout status', () => {
  it("streams kubectl's messages as an image change rolls out, on virtual time", async () => {
    cluster = await clusterWithNginx();
    const printed: string[] = [];
    const r = await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.16.1 && kubectl rollout status deployment/nginx', {
      onLine: (stream, text) => printed.push(`${stream}: ${text} @${cluster.clock.now()}`),
    });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('deployment.apps/nginx image updated');
    expect(collapse(lines.slice(1))).toEqual([
      'Waiting for deployment spec update to be observed...',
      'Waiting for deployment "nginx" rollout to finish: 0 out of 3 new replicas have been updated...',
      'Waiting for deployment "nginx" rollout to finish: 1 out of 3 new replicas have been updated...',
      'Waiting for deployment "nginx" rollout to finish: 2 out of 3 new replicas have been updated...',
      'Waiting for deployment "nginx" rollout to finish: 1 old replicas are pending termination...',
      'deployment "nginx" successfully rolled out',
    ]);
    // The lines came out as the rollout progressed, not at the end.
    const times = printed.map((p) => Number(p.split('@')[1]));
    expect(times.at(-1)! - times[1]).toBeGreaterThan(1000);
    expect(images(cluster)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
  });

  it('with --watch=false prints the current state once; a finished rollout says so at once', async () => {
    cluster = await clusterWithNginx();
    expect(await kubectl(cluster, 'kubectl rollout status deploy nginx')).toMatchObject({ stdout: 'deployment "nginx" successfully rolled out\n', exitCode: 0 });
    cluster.client.deployments.patch('nginx', 'application/strategic-merge-patch+json', { spec: { replicas: 5 } }, { namespace: 'default' });
    cluster.runUntil(() => cluster.client.deployments.get('nginx', { namespace: 'default' }).status?.observedGeneration === 2, 10_000);
    const once = await kubectl(cluster, 'kubectl rollout status deployment/nginx --watch=false');
    expect(once.exitCode).toBe(0);
    expect(once.stdout).toMatch(/^Waiting for deployment "nginx" rollout to finish: \d of 5 updated replicas are available\.\.\.\n$/);
  });

  it('ends with kubectl\'s error on --timeout, on a deleted object and on a pinned revision that is not running', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl rollout pause deployment/nginx');
    await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.16.1');
    const timedOut = await kubectl(cluster, 'kubectl rollout status deployment/nginx --timeout=3s');
    expect(timedOut).toMatchObject({ exitCode: 1, stderr: 'error: timed out waiting for the condition\n' });
    expect(timedOut.stdout).toContain('Waiting for deployment "nginx" rollout to finish: 0 out of 3 new replicas have been updated...');

    expect(await kubectl(cluster, 'kubectl rollout status deployment/nginx --revision=5')).toMatchObject({
      exitCode: 1,
      stderr: 'error: desired revision (5) is different from the running revision (1)\n',
    });

    const deleted = kubectl(cluster, 'kubectl rollout status deployment/nginx');
    cluster.advance(1000);
    cluster.client.deployments.delete('nginx', { namespace: 'default' });
    expect(await deleted).toMatchObject({ exitCode: 1, stderr: 'error: object has been deleted\n' });
  });

  it('Ctrl+C stops the watch; errors for kinds without a status viewer and missing objects', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl rollout pause deployment/nginx');
    await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.16.1');
    const stopped = await kubectl(cluster, 'kubectl rollout status deployment/nginx', { maxTimeMs: 30_000 });
    expect(stopped.cancelled).toBe(true);
    expect(stopped.exitCode).toBe(130);

    expect(await kubectl(cluster, 'kubectl rollout status pod/x')).toMatchObject({ exitCode: 1, stderr: 'Error from server (NotFound): pods "x" not found\n' });
    const rs = cluster.client.replicaSets.list({ namespace: 'default' }).items[0].metadata!.name!;
    expect(await kubectl(cluster, `kubectl rollout status rs/${rs}`)).toMatchObject({ exitCode: 1, stderr: 'error: no status viewer has been implemented for ReplicaSet.apps\n' });
    expect(await kubectl(cluster, 'kubectl rollout status')).toMatchObject({ exitCode: 1, stderr: 'error: required resource not specified\n' });
    expect(await kubectl(cluster, 'kubectl rollout status statefulsets')).toMatchObject({ exitCode: 0, stdout: '', stderr: 'No resources found in default namespace.\n' });
  });

  it('follows a StatefulSet and a DaemonSet with their own messages', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl apply -f -', {
      stdin: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 2
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: 'nginx:1.14.2'}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: 'busybox:1.36'}]}
`,
    });
    const sts = await kubectl(cluster, 'kubectl rollout status statefulset/web');
    expect(sts.exitCode).toBe(0);
    expect(collapse(sts.stdout.trimEnd().split('\n')).at(-1)).toBe('partitioned roll out complete: 2 new pods have been updated...');
    expect(sts.stdout).toContain('Waiting for 2 pods to be ready...');
    const ds = await kubectl(cluster, 'kubectl rollout status ds/agent');
    expect(ds.exitCode).toBe(0);
    expect(collapse(ds.stdout.trimEnd().split('\n')).at(-1)).toBe('daemon set "agent" successfully rolled out');
  });
});

describe('kubectl rollout history / undo', () => {
  it('lists revisions with their change-cause, shows one revision, and rolls back to revision 1', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.16.1 --record');
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');
    await kubectl(cluster, 'kubectl annotate deployment/nginx kubernetes.io/change-cause="image updated to 1.17"');
    await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.17.0');
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');

    const history = await kubectl(cluster, 'kubectl rollout history deployment/nginx');
    expect(history).toMatchObject({ exitCode: 0, stderr: '' });
    expect(history.stdout).toBe(
      [
        'deployment.apps/nginx ',
        'REVISION  CHANGE-CAUSE',
        '1         <none>',
        '2         kubectl set image deployment/nginx nginx=nginx:1.16.1 --record=true',
        '3         image updated to 1.17',
        '',
        '',
      ].join('\n'),
    );

    const one = await kubectl(cluster, 'kubectl rollout history deployment/nginx --revision=2');
    const lines = one.stdout.split('\n');
    expect(lines[0]).toBe('deployment.apps/nginx with revision #2');
    expect(lines[1]).toBe('Pod Template:');
    expect(lines[2]).toMatch(/^ {2}Labels:\tapp=nginx$/);
    expect(lines[3]).toMatch(/^\tpod-template-hash=\S+$/);
    expect(one.stdout).toContain('  Annotations:\tkubernetes.io/change-cause: kubectl set image deployment/nginx nginx=nginx:1.16.1 --record=true\n');
    expect(one.stdout).toContain('  Containers:\n   nginx:\n    Image:\tnginx:1.16.1\n');
    expect(await kubectl(cluster, 'kubectl rollout history deployment/nginx --revision=9')).toMatchObject({ exitCode: 1, stderr: 'error: unable to find the specified revision\n' });

    expect(await kubectl(cluster, 'kubectl rollout undo deployment/nginx --to-revision=9')).toMatchObject({
      exitCode: 1,
      stderr: 'error: unable to find specified revision 9 in history\n',
    });
    expect(await kubectl(cluster, 'kubectl rollout undo deployment/nginx --to-revision=1')).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx rolled back\n' });
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');
    expect(images(cluster)).toEqual(['nginx:1.14.2', 'nginx:1.14.2', 'nginx:1.14.2']);
    // Revision 1 came back as revision 4; its change-cause went with it.
    const after = await kubectl(cluster, 'kubectl rollout history deployment/nginx');
    expect(after.stdout).toContain('\n2         kubectl set image deployment/nginx nginx=nginx:1.16.1 --record=true\n3         image updated to 1.17\n4         <none>\n');
    expect(await kubectl(cluster, 'kubectl rollout undo deployment/nginx --to-revision=4')).toMatchObject({
      stdout: 'deployment.apps/nginx skipped rollback (current template already matches revision 4)\n',
    });
    // Plain undo goes back one revision.
    expect((await kubectl(cluster, 'kubectl rollout undo deployment/nginx')).stdout).toBe('deployment.apps/nginx rolled back\n');
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');
    expect(images(cluster)).toEqual(['nginx:1.17.0', 'nginx:1.17.0', 'nginx:1.17.0']);
  });

  it('history -o name prints the revision objects; undo with --dry-run=client prints the template', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.16.1');
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');
    const names = await kubectl(cluster, 'kubectl rollout history deployment/nginx -o name');
    expect(names.stdout.trimEnd().split('\n')).toEqual(cluster.client.replicaSets.list({ namespace: 'default' }).items.map((rs) => `replicaset.apps/${rs.metadata!.name}`).sort((a, b) => (a < b ? -1 : 1)).sort((a, b) => {
      const rev = (n: string) => Number(cluster.client.replicaSets.get(n.split('/')[1], { namespace: 'default' }).metadata!.annotations!['deployment.kubernetes.io/revision']);
      return rev(a) - rev(b);
    }));
    const dry = await kubectl(cluster, 'kubectl rollout undo deployment/nginx --dry-run=client');
    expect(dry.stdout.startsWith('deployment.apps/nginx Pod Template:\n  Labels:\tapp=nginx\n')).toBe(true);
    expect(dry.stdout).toContain('    Image:\tnginx:1.14.2\n');
    expect(dry.stdout.endsWith(' (dry run)\n')).toBe(true);
    expect(images(cluster)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
  });

  it('rolls a StatefulSet back through its ControllerRevisions', async () => {
    cluster = await clusterWithNginx();
    await kubectl(cluster, 'kubectl create -f -', {
      stdin: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 2
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: nginx, image: 'nginx:1.14.2'}]}
`,
    });
    await kubectl(cluster, 'kubectl rollout status sts/web');
    expect(await kubectl(cluster, 'kubectl rollout undo sts/web')).toMatchObject({ exitCode: 1, stderr: 'error: no last revision to roll back to\n' });
    await kubectl(cluster, 'kubectl set image sts/web nginx=nginx:1.16.1');
    await kubectl(cluster, 'kubectl rollout status sts/web');
    expect((await kubectl(cluster, 'kubectl rollout history statefulset/web')).stdout).toBe('statefulset.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');
    expect((await kubectl(cluster, 'kubectl rollout undo statefulset/web')).stdout).toBe('statefulset.apps/web rolled back\n');
    await kubectl(cluster, 'kubectl rollout status sts/web');
    expect(cluster.client.statefulSets.get('web', { namespace: 'default' }).spec!.template.spec!.containers[0].image).toBe('nginx:1.14.2');
    cluster.runUntil(() => cluster.client.pods.list({ namespace: 'default', labelSelector: 'app=web' }).items.every((p) => p.spec!.containers[0].image === 'nginx:1.14.2'), 120_000);
    expect(cluster.client.pods.list({ namespace: 'default', labelSelector: 'app=web' }).items.map((p) => p.spec!.containers[0].image)).toEqual(['nginx:1.14.2', 'nginx:1.14.2']);
  });
});

describe('kubectl rollout restart / pause / resume', () => {
  it('restart stamps the template with the clock time and rolls a new ReplicaSet', async () => {
    cluster = await clusterWithNginx();
    const before = cluster.client.replicaSets.list({ namespace: 'default' }).items.map((rs) => rs.metadata!.name);
    const r = await kubectl(cluster, 'kubectl rollout restart deployment/nginx');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx restarted\n', stderr: '' });
    const d = cluster.client.deployments.get('nginx', { namespace: 'default' });
    expect(d.spec!.template.metadata!.annotations!['kubectl.kubernetes.io/restartedAt']).toBe(new Date(cluster.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    // The same second again changes nothing, which kubectl refuses.
    expect(await kubectl(cluster, 'kubectl rollout restart deployment/nginx')).toMatchObject({
      exitCode: 1,
      stderr: 'error: failed to create patch for nginx: if restart has already been triggered within the past second, please wait before attempting to trigger another\n',
    });
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');
    const after = cluster.client.replicaSets.list({ namespace: 'default' }).items.map((rs) => rs.metadata!.name);
    expect(after.length).toBe(2);
    expect(after.filter((n) => !before.includes(n))).toHaveLength(1);
    expect(await kubectl(cluster, 'kubectl rollout restart pod')).toMatchObject({ exitCode: 1 });
  });

  it('pause holds template changes back until resume', async () => {
    cluster = await clusterWithNginx();
    expect(await kubectl(cluster, 'kubectl rollout pause deployment/nginx')).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx paused\n' });
    expect(await kubectl(cluster, 'kubectl rollout pause deployment/nginx')).toMatchObject({ exitCode: 1, stderr: 'error: deployments.apps "nginx" is already paused\n' });
    await kubectl(cluster, 'kubectl set image deployment/nginx nginx=nginx:1.16.1');
    cluster.advance(30_000);
    expect(images(cluster)).toEqual(['nginx:1.14.2', 'nginx:1.14.2', 'nginx:1.14.2']);
    expect(cluster.client.replicaSets.list({ namespace: 'default' }).items).toHaveLength(1);
    expect(await kubectl(cluster, 'kubectl rollout restart deployment/nginx')).toMatchObject({
      exitCode: 1,
      stderr: 'error: deployments.apps "nginx" can\'t restart paused deployment (run rollout resume first)\n',
    });
    expect(await kubectl(cluster, 'kubectl rollout undo deployment/nginx')).toMatchObject({ exitCode: 1, stderr: 'error: no rollout history found for deployment "nginx"\n' });

    expect(await kubectl(cluster, 'kubectl rollout resume deployment/nginx')).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx resumed\n' });
    expect(cluster.client.deployments.get('nginx', { namespace: 'default' }).spec!.paused).toBeUndefined();
    expect(await kubectl(cluster, 'kubectl rollout resume deployment/nginx')).toMatchObject({ exitCode: 1, stderr: 'error: deployments.apps "nginx" is not paused\n' });
    await kubectl(cluster, 'kubectl rollout status deployment/nginx');
    expect(images(cluster)).toEqual(['nginx:1.16.1', 'nginx:1.16.1', 'nginx:1.16.1']);
  });

  it('pause refuses other kinds; no objects is a notice', async () => {
    cluster = await clusterWithNginx();
    const rs = cluster.client.replicaSets.list({ namespace: 'default' }).items[0].metadata!.name!;
    expect(await kubectl(cluster, `kubectl rollout pause rs/${rs}`)).toMatchObject({ exitCode: 1, stderr: `error: replicasets.apps "${rs}" pausing is not supported\n` });
    expect(await kubectl(cluster, 'kubectl rollout pause deployments -n kube-public')).toMatchObject({ exitCode: 0, stderr: 'No resources found in kube-public namespace.\n' });
  });
});
