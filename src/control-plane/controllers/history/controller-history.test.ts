import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { selectorFromSet } from '../../../shared/lib/labels';
import { createCluster, type Cluster } from '../../cluster';
import { SharedInformerFactory } from '../../informers/factory';
import { controllerManagerUser } from '../shared/controller';
import {
  ControllerRevisionHashLabel,
  controllerRevisionName,
  equalRevision,
  findEqualRevisions,
  hashControllerRevision,
  History,
  newControllerRevision,
  sortControllerRevisions,
  type Revision,
} from './controller-history';

const stsKind = { apiVersion: 'apps/v1', kind: 'StatefulSet' };

function parent(name = 'web', uid = 'uid-web'): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: 'default', uid } };
}

function data(image: string): unknown {
  return { spec: { template: { $patch: 'replace', spec: { containers: [{ name: 'nginx', image }] } } } };
}

describe('revision helpers', () => {
  it('names revisions prefix-hash and truncates long prefixes to 223 characters', () => {
    expect(controllerRevisionName('web', '5d9f7c8b6')).toBe('web-5d9f7c8b6');
    const long = 'a'.repeat(300);
    expect(controllerRevisionName(long, 'h')).toBe(`${'a'.repeat(223)}-h`);
  });

  it('hashes data with FNV-32, safe-encoded, changing with the data and the probe', () => {
    const a = hashControllerRevision({ data: data('nginx:1.26') as ControllerRevision['data'] });
    const b = hashControllerRevision({ data: data('nginx:1.27') as ControllerRevision['data'] });
    expect(a).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(a).not.toBe(b);
    // Stable: same data, same hash; key order does not matter.
    expect(hashControllerRevision({ data: { b: 1, a: 2 } as never })).toBe(hashControllerRevision({ data: { a: 2, b: 1 } as never }));
    const p0 = hashControllerRevision({ data: data('x') as never }, 0);
    const p1 = hashControllerRevision({ data: data('x') as never }, 1);
    expect(new Set([hashControllerRevision({ data: data('x') as never }), p0, p1]).size).toBe(3);
  });

  it('matches Go hash/fnv New32 (FNV-1) over the bytes, rendered through SafeEncodeString', () => {
    // fnv.New32 of "" is the offset basis 2166136261; of "a" it is 0x050c5d7e = 84696446.
    const enc = (n: number) => [...String(n)].map((ch) => 'bcdfghjklmnpqrstvwxz2456789'[ch.charCodeAt(0) % 27]).join('');
    expect(hashControllerRevision({ data: undefined })).toBe(enc(2166136261));
    // canonicalJson("a") is "\"a\"": hash of the three bytes 0x22 0x61 0x22.
    let h = 0x811c9dc5;
    for (const b of [0x22, 0x61, 0x22]) h = (Math.imul(h, 0x01000193) >>> 0) ^ b;
    expect(hashControllerRevision({ data: 'a' as never })).toBe(enc(h >>> 0));
  });

  it('builds a revision owned by the parent with the template labels plus the hash label', () => {
    const cr = newControllerRevision(parent(), stsKind, { app: 'nginx' }, data('nginx:1.27'), 3, 0);
    const hash = hashControllerRevision(cr, 0);
    expect(cr.metadata.name).toBe(`web-${hash}`);
    expect(cr.metadata.namespace).toBe('default');
    expect(cr.metadata.labels).toEqual({ app: 'nginx', [ControllerRevisionHashLabel]: hash });
    expect(cr.revision).toBe(3);
    expect(cr.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'uid-web', controller: true, blockOwnerDeletion: true },
    ]);
    // A collision count gives another name for the same data.
    expect(newControllerRevision(parent(), stsKind, {}, data('nginx:1.27'), 3, 1).metadata.name).not.toBe(cr.metadata.name);
  });

  it('compares revisions by data and finds equal ones in order', () => {
    const a = newControllerRevision(parent(), stsKind, {}, data('a'), 1, 0);
    const a2 = newControllerRevision(parent(), stsKind, { other: 'label' }, data('a'), 5, 0);
    const b = newControllerRevision(parent(), stsKind, {}, data('b'), 2, 0);
    expect(equalRevision(a, a2)).toBe(true);
    expect(equalRevision(a, b)).toBe(false);
    expect(equalRevision(undefined, undefined)).toBe(true);
    expect(equalRevision(a, undefined)).toBe(false);
    expect(findEqualRevisions([b, a2, a], a)).toEqual([a2, a]);
  });

  it('sorts by revision, then creation time, then name', () => {
    const mk = (name: string, revision: number, ts: string): ControllerRevision => ({
      metadata: { name, creationTimestamp: ts },
      revision,
    });
    const sorted = sortControllerRevisions([
      mk('c', 2, '2026-01-01T00:00:00Z'),
      mk('b', 1, '2026-01-01T00:00:05Z'),
      mk('a', 1, '2026-01-01T00:00:05Z'),
      mk('d', 1, '2026-01-01T00:00:01Z'),
    ]);
    expect(sorted.map((r) => r.metadata?.name)).toEqual(['d', 'a', 'b', 'c']);
  });
});

describe('History on a cluster', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  async function setup() {
    cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    const c = cluster;
    const client = c.client.withUser(controllerManagerUser);
    const informers = new SharedInformerFactory({ client, clock: c.clock, trace: c.trace });
    const informer = informers.controllerRevisions;
    informers.start();
    c.runUntilIdle();
    const history = new History(client, informer.lister as never);
    // The parent must exist for ownerReferences to be meaningful (GC is off here anyway).
    const sts = c.client.statefulSets.create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        serviceName: 'nginx',
        selector: { matchLabels: { app: 'nginx' } },
        template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
      },
    });
    return { c, client, history, sts };
  }

  it('creates, lists (owned and orphans only), renumbers and deletes revisions', async () => {
    const { c, history, sts } = await setup();
    const cr = newControllerRevision(sts, stsKind, { app: 'nginx' }, data('nginx:1.27'), 1, 0);
    const { revision: created, collisionCount } = history.createControllerRevision(sts, cr, 0);
    expect(collisionCount).toBe(0);
    expect(created.metadata.name).toBe(cr.metadata.name);
    expect(created.metadata.uid).toBeTruthy();
    // An orphan and one owned by someone else, both matching the selector.
    c.client.controllerRevisions.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'orphan', namespace: 'default', labels: { app: 'nginx' } },
      data: data('old') as never,
      revision: 0,
    });
    c.client.controllerRevisions.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: 'foreign',
        namespace: 'default',
        labels: { app: 'nginx' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'other', uid: 'other-uid', controller: true }],
      },
      data: data('x') as never,
      revision: 0,
    });
    c.runUntilIdle();
    const listed = history.listControllerRevisions(sts, selectorFromSet({ app: 'nginx' }));
    expect(listed.map((r) => r.metadata.name).sort()).toEqual([cr.metadata.name, 'orphan'].sort());

    const renumbered = history.updateControllerRevision(created, 4);
    expect(renumbered.revision).toBe(4);
    expect(c.client.controllerRevisions.get(created.metadata.name!, { namespace: 'default' }).revision).toBe(4);

    history.deleteControllerRevision(renumbered);
    c.runUntilIdle();
    expect(history.listControllerRevisions(sts, selectorFromSet({ app: 'nginx' })).map((r) => r.metadata.name)).toEqual(['orphan']);
  });

  it('returns the existing revision when the name is taken by equal data, and bumps collisionCount on a real collision', async () => {
    const { c, history, sts } = await setup();
    const cr = newControllerRevision(sts, stsKind, {}, data('nginx:1.27'), 1, 0);
    const first = history.createControllerRevision(sts, cr, 0).revision;
    const again = history.createControllerRevision(sts, cr, 0);
    expect(again.revision.metadata.uid).toBe(first.metadata.uid);
    expect(again.collisionCount).toBe(0);

    // Squat the name the next revision would get, with other data: a hash collision.
    const next = newControllerRevision(sts, stsKind, {}, data('nginx:1.28'), 2, 0);
    c.client.controllerRevisions.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: next.metadata.name, namespace: 'default' },
      data: { something: 'else' } as never,
      revision: 9,
    });
    const { revision, collisionCount } = history.createControllerRevision(sts, next, 0);
    expect(collisionCount).toBe(1);
    expect(revision.metadata.name).toBe(`web-${hashControllerRevision(next, 1)}`);
    expect(revision.data).toEqual(data('nginx:1.28'));
  });

  it('adopts an orphan and releases it again; adopting an owned revision fails', async () => {
    const { c, history, sts } = await setup();
    const orphan = c.client.controllerRevisions.create({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'orphan', namespace: 'default', labels: { app: 'nginx' } },
      data: data('old') as never,
      revision: 1,
    }) as Revision;
    const adopted = history.adoptControllerRevision(sts, stsKind, orphan);
    expect(adopted.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: sts.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(() => history.adoptControllerRevision(sts, stsKind, adopted)).toThrow(/attempt to adopt revision owned by/);
    const released = history.releaseControllerRevision(sts, adopted);
    expect(released?.metadata.ownerReferences ?? []).toEqual([]);
    // Releasing a revision that is gone is not an error.
    c.client.controllerRevisions.delete('orphan', { namespace: 'default' });
    expect(history.releaseControllerRevision(sts, adopted)).toBeUndefined();
  });
});
