import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { conditionRows } from './conditions';
import type { CoreEvent } from './object-events';
import { describeEventRow, eventsFor } from './object-events';
import type { Fixture } from './headless.fixture';
import { keysNamed, nginxFixture } from './headless.fixture';

let f: Fixture;
beforeAll(async () => {
  f = await nginxFixture();
});
afterAll(async () => {
  await f.h.close();
});

const events = () => f.store.getState().resources['/events']?.objects.values();
const now = () => f.h.cluster.clock.now();

describe('an object’s Events, as kubectl describe lists them', () => {
  it('shows the Deployment’s ScalingReplicaSet with describe’s columns', () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const rows = eventsFor(deployment, events()).map((e) => describeEventRow(e, now()));
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    expect(rows.map(({ type, reason, age, from, message }) => ({ type, reason, age, from, message }))).toEqual([
      { type: 'Normal', reason: 'ScalingReplicaSet', age: '30s', from: 'deployment-controller', message: `Scaled up replica set ${rsKey.slice('default/'.length)} from 0 to 3` },
    ]);
  });

  it('lists a pod’s lifecycle oldest first, from the scheduler then its kubelet', () => {
    const [podKey] = keysNamed(f.store, '/pods', 'nginx-');
    const pod = f.get('/pods', podKey);
    const rows = eventsFor(pod, events()).map((e) => describeEventRow(e, now()));
    expect(rows.map((r) => r.reason)).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
    expect(rows[0].from).toBe('default-scheduler');
    expect(rows[0].message).toBe(`Successfully assigned ${podKey} to ${(pod.spec as { nodeName: string }).nodeName}`);
    expect(rows.slice(1).every((r) => r.from === 'kubelet')).toBe(true);
  });

  it('shows a repeated event as "age (xN over first)"', () => {
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    const rs = f.get('apps/replicasets', rsKey);
    const all = eventsFor(rs, events());
    expect(all.filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(3);
    // A repeat as the event recorder writes it: count 4, first seen 2 minutes before the last time.
    const repeated: CoreEvent = { ...all[0], count: 4, firstTimestamp: new Date(now() - 150_000).toISOString(), lastTimestamp: new Date(now() - 10_000).toISOString() };
    expect(describeEventRow(repeated, now()).age).toBe('10s (x4 over 2m30s)');
  });

  it('leaves out events of another object of the same name (another uid) and counts kubelet’s node-name uid for Nodes', () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const [own] = eventsFor(deployment, events());
    const older: KubeObject = { ...own, metadata: { ...own.metadata, name: 'older' }, involvedObject: { ...own.involvedObject, uid: 'another-incarnation' } };
    expect(eventsFor(deployment, [own, older])).toEqual([own]);

    const node = f.get('/nodes', 'node-1');
    const reasons = eventsFor(node, events()).map((e) => e.reason);
    expect(reasons).toContain('NodeReady'); // kubelet: involvedObject.uid is the node's name
    expect(reasons).toContain('RegisteredNode'); // node-controller: the Node's real uid
  });
});

describe('conditions', () => {
  it('reads the Deployment’s Available and Progressing conditions with their age', () => {
    const rows = conditionRows(f.get('apps/deployments', 'default/nginx'), now());
    expect(rows.map((r) => [r.type, r.status, r.reason])).toEqual([
      ['Available', 'True', 'MinimumReplicasAvailable'],
      ['Progressing', 'True', 'NewReplicaSetAvailable'],
    ]);
    expect(rows[0].message).toBe('Deployment has minimum availability.');
    expect(rows[0].lastTransition).toMatch(/^\d+s$/);
  });

  it('is empty for an object without status.conditions', () => {
    expect(conditionRows(f.get('/namespaces', 'default'), now())).toEqual([]);
  });
});
