import { describe, expect, it } from 'vitest';
import { newNotFound } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { parseSelector } from '../../../shared/lib/labels';
import { VirtualClock } from '../../sim/virtual-clock';
import { ControllerRefManager, deleteOwnerRefStrategicMergePatch, ownerRefControllerPatch } from './controller-ref-manager';
import { getPodFromTemplate, getPodsPrefix } from './pod-control';
import { UIDTrackingControllerExpectations } from './uid-tracking-expectations';

const rs: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default', uid: 'rs-uid' } };
const gvk = { apiVersion: 'apps/v1', kind: 'ReplicaSet' };

function pod(name: string, labels: Record<string, string>, owner?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `${name}-uid`, labels, ownerReferences: owner ? [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: owner, controller: true }] : undefined },
  };
}

describe('ControllerRefManager', () => {
  it('keeps owned matches, adopts orphans, releases owned non-matches and ignores others', () => {
    const patches: [string, unknown][] = [];
    const cm = new ControllerRefManager<KubeObject>({
      controller: rs,
      selector: parseSelector('app=web'),
      controllerKind: gvk,
      dependentKind: 'Pod',
      patch: (obj, p) => patches.push([obj.metadata.name!, p]),
    });
    const claimed = cm.claim([
      pod('mine', { app: 'web' }, 'rs-uid'),
      pod('orphan', { app: 'web' }),
      pod('stale', { app: 'db' }, 'rs-uid'),
      pod('theirs', { app: 'web' }, 'other-uid'),
      pod('unrelated', { app: 'db' }),
    ]);
    expect(claimed.map((p) => p.metadata.name)).toEqual(['mine', 'orphan']);
    expect(patches).toEqual([
      ['orphan', ownerRefControllerPatch(rs, gvk, 'orphan-uid')],
      ['stale', deleteOwnerRefStrategicMergePatch('stale-uid', ['rs-uid'])],
    ]);
    expect(patches[0][1]).toEqual({
      metadata: {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
        uid: 'orphan-uid',
      },
    });
    expect(patches[1][1]).toEqual({ metadata: { ownerReferences: [{ $patch: 'delete', uid: 'rs-uid' }], uid: 'stale-uid' } });
  });

  it('does not adopt when canAdopt fails (the controller is being deleted), nor release while being deleted', () => {
    const patches: string[] = [];
    const cm = new ControllerRefManager<KubeObject>({
      controller: rs,
      selector: parseSelector('app=web'),
      controllerKind: gvk,
      dependentKind: 'Pod',
      canAdopt: () => {
        throw new Error('default/web has just been deleted at 2026-01-01T00:00:00Z');
      },
      patch: (obj) => patches.push(obj.metadata.name!),
    });
    expect(() => cm.claim([pod('orphan', { app: 'web' })])).toThrow(
      "can't adopt Pod default/orphan (orphan-uid): default/web has just been deleted at 2026-01-01T00:00:00Z",
    );
    const deleting = { ...rs, metadata: { ...rs.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    const cm2 = new ControllerRefManager<KubeObject>({ controller: deleting, selector: parseSelector('app=web'), controllerKind: gvk, dependentKind: 'Pod', patch: (o) => patches.push(o.metadata.name!) });
    expect(cm2.claim([pod('mine', { app: 'web' }, 'rs-uid'), pod('stale', { app: 'db' }, 'rs-uid'), pod('orphan', { app: 'web' })]).map((p) => p.metadata.name)).toEqual(['mine']);
    expect(patches).toEqual([]);
  });

  it('treats an orphan that vanished before adoption as not claimed', () => {
    const cm = new ControllerRefManager<KubeObject>({
      controller: rs,
      selector: parseSelector('app=web'),
      controllerKind: gvk,
      dependentKind: 'Pod',
      patch: () => {
        throw newNotFound({ group: '', resource: 'pods' }, 'orphan');
      },
    });
    expect(cm.claim([pod('orphan', { app: 'web' })])).toEqual([]);
  });
});

describe('UIDTrackingControllerExpectations', () => {
  it('counts each expected deletion once, whether seen as deletionTimestamp or DELETED', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const e = new UIDTrackingControllerExpectations(clock);
    e.expectDeletions('default/web', ['default/a', 'default/b']);
    expect(e.satisfiedExpectations('default/web')).toBe(false);
    e.deletionObserved('default/web', 'default/a');
    e.deletionObserved('default/web', 'default/a');
    e.deletionObserved('default/web', 'default/zzz');
    expect(e.getExpectations('default/web')).toEqual({ add: 0, del: 1 });
    e.deletionObserved('default/web', 'default/b');
    expect(e.satisfiedExpectations('default/web')).toBe(true);
  });

  it('expires after five minutes', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const e = new UIDTrackingControllerExpectations(clock);
    e.expectCreations('default/web', 3);
    clock.advance(5 * 60_000);
    expect(e.satisfiedExpectations('default/web')).toBe(false);
    clock.advance(1);
    expect(e.satisfiedExpectations('default/web')).toBe(true);
  });
});

describe('getPodFromTemplate', () => {
  it('copies labels, annotations and spec, names by generateName and sets the controller reference', () => {
    const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true };
    const p = getPodFromTemplate({ metadata: { labels: { app: 'web' }, annotations: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, rs, ref);
    expect(p).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { labels: { app: 'web' }, annotations: { a: 'b' }, generateName: 'web-', ownerReferences: [ref] },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    });
    expect(getPodsPrefix('web')).toBe('web-');
    expect(getPodsPrefix('Web_1')).toBe('Web_1');
  });
});
