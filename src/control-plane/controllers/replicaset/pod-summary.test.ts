import fc from 'fast-check';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import type { Typed } from '../../client/client';
import { Indexer, OwnerUidIndex, defaultIndexers } from '../../informers/indexer';
import { rfc3339 } from '../../sim/clock';
import { ControllerRefManager } from '../shared/controller-ref-manager';
import { filterActivePods, indexOrphansByNamespace, OrphanNamespaceIndex } from '../shared/controller-utils';
import { ReplicaSetPodSummaries } from './pod-summary';
import { replicaSetKind, type ReplicaSetLike } from './replica-set-kind';
import { calculateStatus } from './replica-set-utils';

const now = Date.UTC(2026, 0, 1, 0, 1);

interface PodSpec {
  ns: 'a' | 'b';
  owner: 'controller' | 'plain' | 'other' | 'none';
  app: 'web' | 'db';
  tier: boolean;
  phase: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  ready: boolean;
  readyAgoMs: number;
  deleting: boolean;
}

function makePod(i: number, s: PodSpec, rsUid: string): Typed<Pod> {
  const ownerReferences =
    s.owner === 'none'
      ? undefined
      : [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: s.owner === 'other' ? 'other-uid' : rsUid, controller: s.owner !== 'plain' }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: s.ns,
      name: `p${i}`,
      uid: `pod-${i}`,
      labels: s.tier ? { app: s.app, tier: 'front' } : { app: s.app },
      ownerReferences,
      deletionTimestamp: s.deleting ? rfc3339(now - 1000) : undefined,
    },
    spec: { containers: [{ name: 'c', image: 'pause' }] },
    status: {
      phase: s.phase,
      conditions: [{ type: 'Ready', status: s.ready ? 'True' : 'False', lastTransitionTime: rfc3339(now - s.readyAgoMs) }],
    },
  } as Typed<Pod>;
}

function makeRS(uid: string, app: 'web' | 'db', deleting: boolean, minReadySeconds: number): ReplicaSetLike {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { namespace: 'a', name: 'web', uid, deletionTimestamp: deleting ? rfc3339(now - 500) : undefined },
    spec: {
      replicas: 3,
      minReadySeconds,
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app, tier: 'front' } }, spec: { containers: [] } },
    },
  } as ReplicaSetLike;
}

/** The full path of syncReplicaSet: candidates, active ones, claim (recording the writes it would make), status. */
function reference(indexer: Indexer<Typed<Pod>>, rs: ReplicaSetLike) {
  const ns = rs.metadata.namespace ?? '';
  const owned = indexer.byIndex(OwnerUidIndex, rs.metadata.uid ?? '').filter((p) => p.metadata.namespace === ns);
  const seen = new Set(owned.map((p) => p.metadata.uid));
  const candidates = [...owned, ...indexer.byIndex(OrphanNamespaceIndex, ns).filter((p) => !seen.has(p.metadata.uid))];
  let writes = 0;
  const cm = new ControllerRefManager<Typed<Pod>>({
    controller: rs,
    selector: replicaSetKind.selectorOf(rs),
    controllerKind: replicaSetKind.gvk,
    dependentKind: 'Pod',
    patch: () => {
      writes++;
    },
  });
  const claimed = cm.claim(filterActivePods(candidates));
  const status = calculateStatus(rs, claimed, undefined, now);
  return { writes, status };
}

const podSpec: fc.Arbitrary<PodSpec> = fc.record({
  ns: fc.constantFrom('a' as const, 'a' as const, 'b' as const),
  owner: fc.constantFrom('controller' as const, 'controller' as const, 'plain' as const, 'other' as const, 'none' as const),
  app: fc.constantFrom('web' as const, 'web' as const, 'db' as const),
  tier: fc.boolean(),
  phase: fc.constantFrom('Pending' as const, 'Running' as const, 'Running' as const, 'Succeeded' as const, 'Failed' as const),
  ready: fc.boolean(),
  readyAgoMs: fc.integer({ min: 0, max: 20_000 }),
  deleting: fc.boolean(),
});

type Op =
  | { type: 'upsert'; i: number; spec: PodSpec }
  | { type: 'delete'; i: number }
  | { type: 'rs'; app: 'web' | 'db'; deleting: boolean; minReadySeconds: number; recreate: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('upsert' as const), i: fc.integer({ min: 0, max: 11 }), spec: podSpec }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('delete' as const), i: fc.integer({ min: 0, max: 11 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('rs' as const),
      app: fc.constantFrom('web' as const, 'db' as const),
      deleting: fc.boolean(),
      minReadySeconds: fc.constantFrom(0, 0, 5),
      recreate: fc.boolean(),
    }),
  },
);

describe('ReplicaSetPodSummaries', () => {
  it('gives the counts of the full claim + calculateStatus, or defers to it exactly when a claim would write', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), (ops, syncAfter) => {
        const indexer = new Indexer<Typed<Pod>>({ ...defaultIndexers, [OrphanNamespaceIndex]: indexOrphansByNamespace });
        const summaries = new ReplicaSetPodSummaries(indexer);
        let uid = 'rs-1';
        let rs = makeRS(uid, 'web', false, 0);
        const check = () => {
          const counts = summaries.summarize('a/web', rs, replicaSetKind.selectorOf(rs), now);
          const ref = reference(indexer, rs);
          if (ref.writes > 0) {
            expect(counts).toBeUndefined();
            return;
          }
          expect(counts).toEqual({
            replicas: ref.status.replicas,
            fullyLabeledReplicas: ref.status.fullyLabeledReplicas ?? 0,
            readyReplicas: ref.status.readyReplicas ?? 0,
            availableReplicas: ref.status.availableReplicas ?? 0,
          });
        };
        ops.forEach((o, k) => {
          if (o.type === 'upsert') indexer.upsert(makePod(o.i, o.spec, uid));
          else if (o.type === 'delete') indexer.delete(`a/p${o.i}`) ?? indexer.delete(`b/p${o.i}`);
          else {
            if (o.recreate) uid = `rs-${k + 2}`;
            rs = makeRS(uid, o.app, o.deleting, o.minReadySeconds);
          }
          // Syncs come at irregular points: several changes may pile up between two.
          if (syncAfter[k]) check();
        });
        check();
        summaries.forget('a/web');
        check();
        summaries.close();
      }),
      { numRuns: 300, seed: 8 },
    );
  });
});
