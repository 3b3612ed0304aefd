import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import { describe, expect, it } from 'vitest';
import { rollbackTemplate } from './rollback';

const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true, blockOwnerDeletion: true };

function rs(image: string, revision: string, hash: string, annotations: Record<string, string> = {}): ReplicaSet {
  return {
    metadata: {
      name: `web-${hash}`,
      namespace: 'default',
      labels: { app: 'web', 'pod-template-hash': hash },
      ownerReferences: [owner],
      annotations: { 'deployment.kubernetes.io/revision': revision, ...annotations },
    },
    spec: {
      selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
      template: { metadata: { labels: { app: 'web', 'pod-template-hash': hash } }, spec: { containers: [{ name: 'c', image }] } },
    },
  };
}

function deployment(image: string, paused = false): Deployment {
  return {
    metadata: { name: 'web', namespace: 'default', uid: 'd-uid', annotations: { 'deployment.kubernetes.io/revision': '3', 'kubernetes.io/change-cause': 'v3' } },
    spec: { paused, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } } },
  };
}

const history = [rs('nginx:1', '1', 'aaa', { 'kubernetes.io/change-cause': 'v1' }), rs('nginx:2', '2', 'bbb', { 'kubernetes.io/change-cause': 'v2' }), rs('nginx:3', '3', 'ccc')];

describe('rollbackTemplate (kubectl rollout undo)', () => {
  it('returns the previous revision by default, without the hash label, with its change-cause', () => {
    const out = rollbackTemplate(deployment('nginx:3'), history);
    expect(out).toMatchObject({ message: 'rolled back', skipped: false, revision: 2 });
    expect(out.template).toEqual({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } });
    expect(out.annotations).toEqual({ 'deployment.kubernetes.io/revision': '3', 'kubernetes.io/change-cause': 'v2' });
    expect(out.patch?.map((p) => p.path)).toEqual(['/spec/template', '/metadata/annotations']);
  });

  it('goes to a named revision, skips the current one and reports unknown revisions', () => {
    expect(rollbackTemplate(deployment('nginx:3'), history, 1).template?.spec?.containers[0].image).toBe('nginx:1');
    expect(rollbackTemplate(deployment('nginx:3'), history, 3)).toMatchObject({ skipped: true, message: 'skipped rollback (current template already matches revision 3)' });
    expect(() => rollbackTemplate(deployment('nginx:3'), history, 7)).toThrow('unable to find specified revision 7 in history');
    expect(() => rollbackTemplate(deployment('nginx:3'), [history[2]])).toThrow('no rollout history found for deployment "web"');
  });

  it('refuses a paused deployment and ignores ReplicaSets it does not control', () => {
    expect(() => rollbackTemplate(deployment('nginx:3', true), history)).toThrow(
      "you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again",
    );
    const foreign = { ...rs('evil', '9', 'zzz'), metadata: { ...rs('evil', '9', 'zzz').metadata, ownerReferences: [] } };
    expect(rollbackTemplate(deployment('nginx:3'), [...history, foreign]).revision).toBe(2);
  });
});
