import { describe, expect, it } from 'vitest';
import {
  getProportion,
  maxSurge,
  maxUnavailable,
  newRSNewReplicas,
  resolveFenceposts,
  setNewReplicaSetAnnotations,
  setDeploymentCondition,
  newDeploymentCondition,
  deploymentTimedOut,
  equalIgnoreHash,
  findNewReplicaSet,
  type DeploymentObj,
  type ReplicaSetObj,
} from './deployment-util';

function deployment(replicas: number, maxSurgeValue?: number | string, maxUnavailableValue?: number | string, type = 'RollingUpdate'): DeploymentObj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      strategy: type === 'RollingUpdate' ? { type, rollingUpdate: { maxSurge: maxSurgeValue, maxUnavailable: maxUnavailableValue } } : { type },
    },
  };
}

function rs(name: string, replicas: number, annotations: Record<string, string> = {}, available = 0): ReplicaSetObj {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', annotations, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { replicas, selector: {}, template: { spec: { containers: [{ name: 'c', image: name }] } } },
    status: { replicas, availableReplicas: available },
  };
}

describe('maxSurge / maxUnavailable', () => {
  it('rounds a surge percentage up and an unavailable percentage down', () => {
    expect(resolveFenceposts('25%', '25%', 10)).toEqual({ surge: 3, unavailable: 2 }); // 2.5 → 3, 2.5 → 2
    expect(resolveFenceposts('25%', '25%', 3)).toEqual({ surge: 1, unavailable: 0 }); // 0.75 → 1, 0.75 → 0
    expect(resolveFenceposts(3, 2, 10)).toEqual({ surge: 3, unavailable: 2 });
    expect(resolveFenceposts('10%', '10%', 25)).toEqual({ surge: 3, unavailable: 2 }); // 2.5 → 3, 2.5 → 2
  });

  it('makes maxUnavailable 1 when both resolve to 0', () => {
    expect(resolveFenceposts('0%', '25%', 1)).toEqual({ surge: 0, unavailable: 1 }); // 0.25 → 0 → 1
    expect(resolveFenceposts(0, '1%', 2)).toEqual({ surge: 0, unavailable: 1 });
  });

  it('caps maxUnavailable at replicas and is 0 for Recreate or 0 replicas', () => {
    expect(maxUnavailable(deployment(4, 0, '200%'))).toBe(4);
    expect(maxUnavailable(deployment(0, 1, 1))).toBe(0);
    expect(maxUnavailable(deployment(4, undefined, undefined, 'Recreate'))).toBe(0);
    expect(maxSurge(deployment(4, undefined, undefined, 'Recreate'))).toBe(0);
    expect(maxSurge(deployment(10, '25%', '25%'))).toBe(3);
  });
});

describe('rolling arithmetic: 10 replicas, maxSurge 3, maxUnavailable 2 (≤ 13 pods, ≥ 8 available)', () => {
  it('sizes the new ReplicaSet within the surge', () => {
    const d = deployment(10, 3, 2);
    const newRS = rs('new', 0);
    // 10 old pods: room 13 − 10 = 3.
    expect(newRSNewReplicas(d, [rs('old', 10), newRS], newRS)).toBe(3);
    // Old scaled to 8, new at 3: room 13 − 11 = 2 → 5.
    const at3 = rs('new', 3);
    expect(newRSNewReplicas(d, [rs('old', 8), at3], at3)).toBe(5);
    // At the limit: stays.
    const at5 = rs('new', 5);
    expect(newRSNewReplicas(d, [rs('old', 8), at5], at5)).toBe(5);
    // Never more than replicas for the new RS.
    const at9 = rs('new', 9);
    expect(newRSNewReplicas(d, [rs('old', 0), at9], at9)).toBe(10);
    // Recreate: everything at once.
    expect(newRSNewReplicas(deployment(10, undefined, undefined, 'Recreate'), [newRS], newRS)).toBe(10);
  });
});

describe('proportional scaling', () => {
  it('gives each RS its share of max-replicas, bounded by what is left', () => {
    const d = deployment(20, '25%', '25%'); // 20 + 5 = 25 allowed
    const old = rs('old', 8, { 'deployment.kubernetes.io/max-replicas': '13' });
    const cur = rs('cur', 5, { 'deployment.kubernetes.io/max-replicas': '13' });
    // to add 25 − 13 = 12: old round(8 × 25 / 13 = 15.38) − 8 = 7
    expect(getProportion(old, d, 12, 0)).toBe(7);
    // new round(5 × 25 / 13 = 9.62) − 5 = 5, within 12 − 7 = 5
    expect(getProportion(cur, d, 12, 7)).toBe(5);
    // bounded: only 2 left
    expect(getProportion(cur, d, 12, 10)).toBe(2);
    // to zero: the whole RS goes
    expect(getProportion(old, deployment(0, '25%', '25%'), -13, 0)).toBe(-8);
    expect(getProportion(rs('empty', 0), d, 12, 0)).toBe(0);
  });
});

describe('revision annotations', () => {
  it('sets the revision and replica annotations on a new RS and keeps history on a rollback', () => {
    const d = deployment(3, '25%', '25%');
    d.metadata.annotations = { 'kubernetes.io/change-cause': 'kubectl set image', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
    const fresh = rs('fresh', 0);
    expect(setNewReplicaSetAnnotations(d, fresh, '1', false)).toBe(true);
    expect(fresh.metadata.annotations).toEqual({
      'kubernetes.io/change-cause': 'kubectl set image',
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    // The RS of revision 1 becomes the new RS again at revision 3: "1" goes to the history.
    expect(setNewReplicaSetAnnotations(d, fresh, '3', true)).toBe(true);
    expect(fresh.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(fresh.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
    expect(setNewReplicaSetAnnotations(d, fresh, '5', true)).toBe(true);
    expect(fresh.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1,3');
    // Nothing new: no change.
    expect(setNewReplicaSetAnnotations(d, fresh, '5', true)).toBe(false);
  });
});

describe('conditions and the progress deadline', () => {
  it('keeps lastTransitionTime when only the reason changes and times out strictly after the deadline', () => {
    const t0 = Date.parse('2026-01-01T10:00:00Z');
    const status = {};
    setDeploymentCondition(status, newDeploymentCondition('Progressing', 'True', 'NewReplicaSetCreated', 'Created new replica set "web-1"', t0));
    setDeploymentCondition(status, newDeploymentCondition('Progressing', 'True', 'ReplicaSetUpdated', 'ReplicaSet "web-1" is progressing.', t0 + 60_000));
    const cond = (status as { conditions: { lastTransitionTime: string; lastUpdateTime: string; reason: string }[] }).conditions[0];
    expect(cond).toMatchObject({ reason: 'ReplicaSetUpdated', lastTransitionTime: '2026-01-01T10:00:00Z', lastUpdateTime: '2026-01-01T10:01:00Z' });

    const d = deployment(2, 1, 0);
    d.spec!.progressDeadlineSeconds = 600;
    // Last progress 10:01:00 + 600 s = 10:11:00.
    expect(deploymentTimedOut(d, status, Date.parse('2026-01-01T10:11:00Z'))).toBe(false);
    expect(deploymentTimedOut(d, status, Date.parse('2026-01-01T10:11:01Z'))).toBe(true);
  });
});

describe('finding the new ReplicaSet', () => {
  it('compares templates ignoring pod-template-hash and empty fields', () => {
    const d = deployment(1, 1, 0);
    const same = rs('web-abc', 1);
    same.spec!.template = { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' }, annotations: {} }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const other = rs('web-def', 1);
    other.spec!.template = { metadata: { labels: { app: 'web', 'pod-template-hash': 'def' } }, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } };
    expect(equalIgnoreHash(d.spec!.template, same.spec!.template)).toBe(true);
    expect(findNewReplicaSet(d, [other, same])?.metadata.name).toBe('web-abc');
  });
});
