// The taint eviction controller on a real cluster, with taints written by the test (as the node lifecycle
// controller or a user would): the NoExecute conformance behaviours of test/e2e/node/taints.go.
import { afterEach, describe, expect, it } from 'vitest';
import type { Taint, Toleration } from 'kubernetes-types/core/v1';
import { PatchType } from '../../../../shared/api/request';
import { createCluster, type Cluster } from '../../../cluster';
import { SharedInformerFactory } from '../../../informers/factory';
import { controllerManagerUser } from '../../shared/controller';
import { LeaseKubelet, advance, getPod, runningPod } from '../test-support';
import { TaintEvictionController, getMinTolerationTime } from './taint-eviction-controller';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

async function setup(nodes = ['node-1']) {
  const c = await createCluster({ controllers: ['serviceaccount-controller'], nodes: 0, scheduler: false });
  cluster = c;
  const { client, clock, trace } = c;
  c.runUntil(() => client.serviceAccounts.list({ namespace: 'default' }).items.length > 0, 1_000);
  const kubelets = nodes.map((n) => new LeaseKubelet(client, clock, n, 'zone-a'));
  const controllerClient = client.withUser(controllerManagerUser);
  const informers = new SharedInformerFactory({ client: controllerClient, clock, trace });
  const tec = new TaintEvictionController({ client: controllerClient, informers, clock, trace });
  informers.start();
  tec.run();
  c.runUntil(() => informers.hasSynced(), 1_000);
  advance(clock, 200);
  const setTaints = (node: string, taints: Taint[]) => {
    client.nodes.patch(node, PatchType.StrategicMergePatch, { spec: { taints: taints.length ? taints : null } });
    clock.runDeferred();
  };
  const deleting = (name: string) => getPod(client, name)?.metadata.deletionTimestamp !== undefined;
  const events = () => client.events.list().items.filter((e) => e.reason === 'TaintManagerEviction').map((e) => e.message);
  return { cluster: c, client, clock, tec, kubelets, setTaints, deleting, events };
}

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const tolerate = (seconds?: number): Toleration => ({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });

describe('TaintEvictionController', () => {
  it('evicts pods from tainted nodes at once when they do not tolerate the taint, and keeps those that do', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'plain', 'node-1');
    runningPod(s.client, s.clock, 'tolerant', 'node-1', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoExecute' }] });
    s.clock.runDeferred();
    s.setTaints('node-1', [{ key: 'dedicated', value: 'gpu', effect: 'NoExecute' }]);
    expect(s.deleting('plain')).toBe(true);
    expect(s.deleting('tolerant')).toBe(false);
    expect(getPod(s.client, 'plain')!.status!.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'DeletionByTaintManager',
      message: 'Taint manager: deleting due to NoExecute taint',
    });
    // Deleted with the pod's grace period: it stays Terminating until a kubelet finishes it.
    expect(getPod(s.client, 'plain')!.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(s.events()).toEqual(['Marking for deletion Pod default/plain']);
    advance(s.clock, 3_600_000);
    expect(s.deleting('tolerant')).toBe(false);
  });

  it('eventually evicts a pod with finite tolerations, after tolerationSeconds', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'web-abc', 'node-1', { tolerations: [tolerate(60)] });
    s.clock.runDeferred();
    s.setTaints('node-1', [unreachable]);
    expect(s.tec.scheduledEvictions()).toEqual([{ pod: 'default/web-abc', createdAt: s.clock.now(), fireAt: s.clock.now() + 60_000 }]);
    advance(s.clock, 59_999);
    expect(s.deleting('web-abc')).toBe(false);
    advance(s.clock, 1);
    expect(s.deleting('web-abc')).toBe(true);
    expect(s.events()).toEqual(['Marking for deletion Pod default/web-abc']);
    expect(s.tec.scheduledEvictions()).toEqual([]);
  });

  it('cancels the eviction when the taint is removed (60 s toleration, taint removed at 30 s)', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'web-abc', 'node-1', { tolerations: [tolerate(60)] });
    s.clock.runDeferred();
    s.setTaints('node-1', [unreachable]);
    advance(s.clock, 30_000);
    s.setTaints('node-1', []);
    expect(s.tec.scheduledEvictions()).toEqual([]);
    advance(s.clock, 10 * 60_000);
    expect(s.deleting('web-abc')).toBe(false);
    expect(s.events()).toEqual(['Cancelling deletion of Pod default/web-abc']);
  });

  it('never evicts pods that tolerate the taint forever (DaemonSet pods)', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'ds-pod', 'node-1', {
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
      ],
    });
    s.clock.runDeferred();
    // DefaultTolerationSeconds leaves tolerations it finds alone.
    expect(getPod(s.client, 'ds-pod')!.spec!.tolerations!.every((t) => t.tolerationSeconds === undefined)).toBe(true);
    s.setTaints('node-1', [unreachable]);
    advance(s.clock, 3_600_000);
    expect(s.deleting('ds-pod')).toBe(false);
    expect(s.events()).toEqual([]);
  });

  it('evicts with the smallest tolerationSeconds among the matching tolerations (minTolerationSeconds)', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'min', 'node-1', {
      tolerations: [tolerate(120), { key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
    });
    s.clock.runDeferred();
    s.setTaints('node-1', [unreachable, { key: 'maintenance', effect: 'NoExecute' }]);
    advance(s.clock, 29_000);
    expect(s.deleting('min')).toBe(false);
    advance(s.clock, 1_000);
    expect(s.deleting('min')).toBe(true);
  });

  it('counts from when the pod was first seen tainted: a later taint change does not restart the clock', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'web', 'node-1', { tolerations: [tolerate(60), { key: 'other', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 100 }] });
    s.clock.runDeferred();
    s.setTaints('node-1', [unreachable]);
    advance(s.clock, 20_000);
    s.setTaints('node-1', [unreachable, { key: 'other', effect: 'NoExecute' }]);
    advance(s.clock, 39_999);
    expect(s.deleting('web')).toBe(false);
    advance(s.clock, 1);
    expect(s.deleting('web')).toBe(true);
  });

  it('schedules a pod bound to an already tainted node', async () => {
    const s = await setup();
    s.setTaints('node-1', [unreachable]);
    advance(s.clock, 5_000);
    runningPod(s.client, s.clock, 'late', 'node-1', { tolerations: [tolerate(10)] });
    s.clock.runDeferred();
    advance(s.clock, 9_999);
    expect(s.deleting('late')).toBe(false);
    advance(s.clock, 1);
    expect(s.deleting('late')).toBe(true);
  });

  it('drops pending evictions on shutDown', async () => {
    const s = await setup();
    runningPod(s.client, s.clock, 'web', 'node-1', { tolerations: [tolerate(60)] });
    s.clock.runDeferred();
    s.setTaints('node-1', [unreachable]);
    s.tec.shutDown();
    advance(s.clock, 120_000);
    expect(s.deleting('web')).toBe(false);
  });
});

describe('getMinTolerationTime', () => {
  it('is 0 without tolerations or with one ≤ 0, -1 when all are forever, else the minimum in ms', () => {
    expect(getMinTolerationTime([])).toBe(0);
    expect(getMinTolerationTime([tolerate(), tolerate(0)])).toBe(0);
    expect(getMinTolerationTime([tolerate(), tolerate()])).toBe(-1);
    expect(getMinTolerationTime([tolerate(300), tolerate(), tolerate(45)])).toBe(45_000);
  });
});
