// The StatefulSet controller alone on a cluster without scheduler or kubelets: the tests play the kubelet
// (bindPod / setPodRunning) so each step of the controller can be observed between two pod transitions.
import type { StatefulSet } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { PatchType } from '../../../shared/api/request';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { bindPod, setPodRunning } from '../replicaset/testing';
import { controllerManagerUser } from '../shared/controller';
import { getControllerOf } from '../shared/controller-utils';
import { StatefulSetController } from './stateful-set-controller';
import type { StatefulSetFeatureGates } from './stateful-set-control';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function setup(featureGates?: StatefulSetFeatureGates, extraControllers: string[] = []) {
  cluster = await createCluster({ controllers: ['serviceaccount-controller', ...extraControllers], nodes: 0, scheduler: false });
  const c = cluster;
  const client = c.client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client, clock: c.clock, trace: c.trace });
  const ssc = new StatefulSetController({ client, informers, clock: c.clock, trace: c.trace, featureGates });
  informers.start();
  ssc.run();
  c.client.nodes.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } } });
  c.runUntil(() => {
    try {
      c.client.serviceAccounts.get('default', { namespace: 'default' });
      return true;
    } catch {
      return false;
    }
  }, 10_000);
  // With minReadySeconds the controller re-checks every minReadySeconds while pods are unavailable, so the
  // cluster is never idle: settle within a short window.
  const settle = () => c.runUntilIdle({ maxTimeMs: 500 });
  const names = () =>
    c.client.pods
      .list({ namespace: 'default' })
      .items.filter((p) => !p.metadata.deletionTimestamp)
      .map((p) => p.metadata.name!)
      .sort();
  const get = (name: string) => c.client.pods.get(name, { namespace: 'default' });
  /** Plays the kubelet: bound, Running, Ready (or not). */
  const run = (name: string, ready = true) => {
    const p = get(name);
    if (!p.spec?.nodeName) bindPod(c.client, p, 'node-1');
    setPodRunning(c.client, p, c.clock.now(), ready);
    settle();
  };
  /** Plays the kubelet finishing a graceful deletion. */
  const finishDeletions = () => {
    for (const p of c.client.pods.list({ namespace: 'default' }).items) {
      if (p.metadata.deletionTimestamp) c.client.pods.delete(p.metadata.name!, { namespace: 'default', gracePeriodSeconds: 0 });
    }
    settle();
  };
  const sts = () => c.client.statefulSets.get('web', { namespace: 'default' });
  const events = (reason: string) =>
    c.client.events
      .list({ namespace: 'default' })
      .items.filter((e) => e.reason === reason && e.involvedObject.kind === 'StatefulSet')
      .map((e) => e.message);
  return { c, ssc, settle, names, get, run, finishDeletions, sts, events };
}

function statefulSet(spec: Partial<StatefulSet['spec']> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      serviceName: 'nginx',
      replicas: 3,
      selector: { matchLabels: { app: 'nginx' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
      ...spec,
    },
  };
}

describe('StatefulSetController', () => {
  it('OrderedReady: creates the next ordinal only once the previous is Running and Ready', async () => {
    const { c, settle, names, run, sts } = await setup();
    c.client.statefulSets.create(statefulSet());
    settle();
    expect(names()).toEqual(['web-0']);
    // Running but not Ready: still waiting.
    run('web-0', false);
    c.advance(30_000);
    expect(names()).toEqual(['web-0']);
    run('web-0');
    expect(names()).toEqual(['web-0', 'web-1']);
    run('web-1');
    run('web-2');
    expect(names()).toEqual(['web-0', 'web-1', 'web-2']);
    expect(sts().status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3 });
  });

  it('OrderedReady with minReadySeconds: waits until the previous pod is available', async () => {
    const { c, settle, names, get, run, sts } = await setup();
    c.client.statefulSets.create(statefulSet({ minReadySeconds: 10, replicas: 2 }));
    settle();
    run('web-0');
    expect(names()).toEqual(['web-0']);
    expect(sts().status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    // Ready since (a whole second: metav1.Time); available strictly after readyAt + 10 s.
    const readyAt = Date.parse(get('web-0').status!.conditions!.find((x) => x.type === 'Ready')!.lastTransitionTime!);
    c.clock.advanceTo(readyAt + 9_900);
    expect(names()).toEqual(['web-0']);
    // The controller looks again by itself (enqueueSSAfter) once minReadySeconds have passed.
    c.clock.advanceTo(readyAt + 12_000);
    expect(names()).toEqual(['web-0', 'web-1']);
    expect(sts().status?.availableReplicas).toBe(1);
  });

  it('starts at spec.ordinals.start', async () => {
    const { c, settle, names, run } = await setup();
    c.client.statefulSets.create(statefulSet({ ordinals: { start: 5 }, replicas: 2 }));
    settle();
    run('web-5');
    expect(names()).toEqual(['web-5', 'web-6']);
    expect(c.client.pods.get('web-6', { namespace: 'default' }).metadata.labels?.['apps.kubernetes.io/pod-index']).toBe('6');
  });

  it('scales down from the highest ordinal, waiting for each pod to be gone', async () => {
    const { c, settle, names, run, finishDeletions, events } = await setup();
    c.client.statefulSets.create(statefulSet());
    settle();
    for (const n of ['web-0', 'web-1', 'web-2']) run(n);
    c.client.statefulSets.patch('web', PatchType.MergePatch, { spec: { replicas: 1 } }, { namespace: 'default' });
    settle();
    expect(names()).toEqual(['web-0', 'web-1']);
    c.advance(10_000);
    expect(names()).toEqual(['web-0', 'web-1']);
    finishDeletions();
    expect(names()).toEqual(['web-0']);
    finishDeletions();
    expect(events('SuccessfulDelete')).toEqual(['delete Pod web-2 in StatefulSet web successful', 'delete Pod web-1 in StatefulSet web successful']);
  });

  it('adopts orphaned members and revisions, ignores pods whose name is not a member, releases pods that stop matching', async () => {
    const { c, settle, names, sts } = await setup();
    const orphan = (name: string) =>
      c.client.pods.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default', labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
      });
    orphan('web-0');
    orphan('cache-0');
    c.client.controllerRevisions.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'web-old', namespace: 'default', labels: { app: 'nginx' } },
      data: { spec: { template: { $patch: 'replace', spec: { containers: [{ name: 'nginx', image: 'nginx:1.0' }] } } } } as never,
      revision: 1,
    });
    // OnDelete: the adopted web-0 has no controller-revision-hash, which RollingUpdate would replace at once.
    const set = c.client.statefulSets.create(statefulSet({ replicas: 1, updateStrategy: { type: 'OnDelete' } }));
    settle();
    expect(getControllerOf(c.client.pods.get('web-0', { namespace: 'default' }))?.uid).toBe(set.metadata.uid);
    expect(getControllerOf(c.client.pods.get('cache-0', { namespace: 'default' }))).toBeUndefined();
    expect(getControllerOf(c.client.controllerRevisions.get('web-old', { namespace: 'default' }))?.uid).toBe(set.metadata.uid);
    // The adopted revision is older: the set's template becomes revision 2.
    const update = c.client.controllerRevisions.get(sts().status!.updateRevision!, { namespace: 'default' });
    expect(update.revision).toBe(2);
    // The adopted web-0 lacks the identity labels: the controller adds them once it is Running and Ready.
    const p = c.client.pods.get('web-0', { namespace: 'default' });
    bindPod(c.client, p, 'node-1');
    setPodRunning(c.client, p, c.clock.now(), true);
    settle();
    expect(c.client.pods.get('web-0', { namespace: 'default' }).metadata.labels).toMatchObject({
      'statefulset.kubernetes.io/pod-name': 'web-0',
      'apps.kubernetes.io/pod-index': '0',
    });
    expect(names()).toEqual(['cache-0', 'web-0']);

    // Relabel web-0 out of the selector: released, and a new web-0 cannot be created while the name is taken.
    c.client.pods.patch('web-0', PatchType.MergePatch, { metadata: { labels: { app: 'other' } } }, { namespace: 'default' });
    settle();
    expect(getControllerOf(c.client.pods.get('web-0', { namespace: 'default' }))).toBeUndefined();
  });

  it('records FailedCreate with the API error and retries', async () => {
    const { c, settle, names, events } = await setup();
    const quota = c.client.resourceQuotas.create({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'pods', namespace: 'default' },
      spec: { hard: { pods: '1' } },
    });
    // As the resourcequota-controller (not running here) would sync it: admission enforces status.hard.
    c.client.resourceQuotas.updateStatus({ ...quota, status: { hard: { pods: '1' }, used: { pods: '0' } } });
    c.client.statefulSets.create(statefulSet({ podManagementPolicy: 'Parallel', replicas: 2 }));
    c.runUntilIdle({ maxTimeMs: 1_000 });
    expect(names()).toEqual(['web-0']);
    const failed = events('FailedCreate');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]).toMatch(/^create Pod web-1 in StatefulSet web failed error: pods "web-1" is forbidden: exceeded quota: pods/);
  });

  it('rolls one pod at a time by default; with MaxUnavailableStatefulSet, maxUnavailable pods at once', async () => {
    for (const gate of [false, true]) {
      const { c, settle, names, run, finishDeletions, sts } = await setup({ maxUnavailableStatefulSet: gate });
      c.client.statefulSets.create(
        statefulSet({ podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 2 } } }),
      );
      settle();
      for (const n of ['web-0', 'web-1', 'web-2']) run(n);
      c.client.statefulSets.patch(
        'web',
        PatchType.StrategicMergePatch,
        { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } } } },
        { namespace: 'default' },
      );
      settle();
      const terminating = c.client.pods
        .list({ namespace: 'default' })
        .items.filter((p) => p.metadata.deletionTimestamp)
        .map((p) => p.metadata.name);
      expect(terminating).toEqual(gate ? ['web-1', 'web-2'] : ['web-2']);
      finishDeletions();
      expect(names()).toEqual(['web-0', 'web-1', 'web-2']);
      expect(sts().status?.updateRevision).not.toBe(sts().status?.currentRevision);
      await cluster?.close();
      cluster = undefined;
    }
  });

  it('a whenScaled: Delete claim still owned by an earlier pod blocks creating the pod', async () => {
    const { c, settle, names } = await setup();
    c.client.persistentVolumeClaims.create({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'www-web-0',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: 'gone-pod-uid', controller: true }],
      },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    c.client.statefulSets.create(
      statefulSet({
        replicas: 1,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      }),
    );
    c.runUntilIdle({ maxTimeMs: 5_000 });
    expect(names()).toEqual([]);
    // Once the stale claim is gone (the garbage collector's job), the next resync creates a fresh claim and web-0.
    c.client.persistentVolumeClaims.delete('www-web-0', { namespace: 'default' });
    c.runUntilIdle({ maxTimeMs: 5_000 });
    expect(names()).toEqual([]);
    c.advance(30_000);
    expect(names()).toEqual(['web-0']);
    expect(c.client.persistentVolumeClaims.get('www-web-0', { namespace: 'default' }).metadata.ownerReferences).toBeUndefined();
  });

  it('recreates a claim deleted while its pod is Pending', async () => {
    const { c, settle } = await setup();
    c.client.statefulSets.create(
      statefulSet({
        replicas: 1,
        volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      }),
    );
    settle();
    const first = c.client.persistentVolumeClaims.get('www-web-0', { namespace: 'default' });
    c.client.persistentVolumeClaims.delete('www-web-0', { namespace: 'default' });
    // Any pod event makes the controller look again.
    c.client.pods.patch('web-0', PatchType.MergePatch, { metadata: { annotations: { poke: '1' } } }, { namespace: 'default' });
    settle();
    const second = c.client.persistentVolumeClaims.get('www-web-0', { namespace: 'default' });
    expect(second.metadata.uid).not.toBe(first.metadata.uid);
  });
});

describe('StatefulSetController trace', () => {
  it('says what each step did', async () => {
    const { c, settle, run } = await setup();
    c.client.statefulSets.create(statefulSet({ replicas: 2 }));
    settle();
    run('web-0', false);
    const steps = c.trace
      .recent()
      .filter((e) => e.data.event === 'statefulset.update')
      .map((e) => e.data.steps as { action: string; pod?: string }[]);
    expect(steps[0]).toEqual([{ action: 'create', pod: 'web-0' }]);
    expect(steps.at(-1)).toEqual([{ action: 'wait for Running and Ready', pod: 'web-0' }]);
    const pods: Pod[] = c.client.pods.list({ namespace: 'default' }).items;
    expect(pods).toHaveLength(1);
  });
});
