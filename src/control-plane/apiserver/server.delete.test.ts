import { describe, expect, it } from 'vitest';
import type { Status } from '../../shared/api/status';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { PatchType } from './types';
import { configMap, deployment, newTestServer, pod, type TestServer } from './handlers/test-harness';

function withServiceAccount(t: TestServer, namespace = 'default'): void {
  t.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
}

describe('finalizers and graceful deletion', () => {
  it('keeps an object with a finalizer until the finalizer goes (A4)', () => {
    const t = newTestServer();
    const cm = t.create(configMap('held', 'default', { metadata: { finalizers: ['example.com/hold'] } }));
    const events: WatchEvent[] = [];
    t.watch('v1', 'ConfigMap', 'default', { resourceVersion: cm.metadata.resourceVersion }, events);

    const res = t.remove('v1', 'ConfigMap', 'default', 'held');
    expect(res.code).toBe(200);
    const terminating = res.body as KubeObject;
    expect(terminating.metadata.deletionTimestamp).toBe('2026-01-01T00:00:00Z');
    expect(terminating.metadata.deletionGracePeriodSeconds).toBe(0);
    const got = t.get('v1', 'ConfigMap', 'default', 'held');
    expect(got.metadata.deletionTimestamp).toBeDefined();
    t.clock.runUntilIdle();
    expect(events.map((e) => e.type)).toEqual(['MODIFIED']);

    t.patch('v1', 'ConfigMap', 'default', 'held', PatchType.MergePatch, { metadata: { finalizers: null } });
    t.clock.runUntilIdle();
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(t.failure(() => t.get('v1', 'ConfigMap', 'default', 'held'))).toMatchObject({ code: 404 });
  });

  it('refuses new finalizers on an object being deleted', () => {
    const t = newTestServer();
    t.create(configMap('held', 'default', { metadata: { finalizers: ['example.com/hold'] } }));
    t.remove('v1', 'ConfigMap', 'default', 'held');
    const status = t.failure(() =>
      t.patch('v1', 'ConfigMap', 'default', 'held', PatchType.MergePatch, { metadata: { finalizers: ['example.com/hold', 'example.com/x'] } }),
    );
    expect(status.code).toBe(422);
    expect(status.message).toContain('no new finalizers can be added if the object is being deleted');
  });

  it('deletes an object without finalizers at once with a Success Status', () => {
    const t = newTestServer();
    const cm = t.create(configMap('gone'));
    const res = t.remove('v1', 'ConfigMap', 'default', 'gone');
    expect(res.code).toBe(200);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'gone', group: '', kind: 'configmaps', uid: cm.metadata.uid } });
  });

  it('gives a scheduled pod its grace period, lets a second delete only shorten it, and deletes unscheduled pods at once', () => {
    const t = newTestServer();
    withServiceAccount(t);
    t.create(pod('running', 'default', { nodeName: 'node-1' }));
    const first = t.remove('v1', 'Pod', 'default', 'running').body as KubeObject;
    expect(first.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(first.metadata.deletionTimestamp).toBe('2026-01-01T00:00:30Z');

    t.clock.advance(10_000);
    const longer = t.remove('v1', 'Pod', 'default', 'running', { gracePeriodSeconds: 60 }).body as KubeObject;
    expect(longer.metadata.deletionGracePeriodSeconds).toBe(30);
    const shorter = t.remove('v1', 'Pod', 'default', 'running', { gracePeriodSeconds: 5 }).body as KubeObject;
    expect(shorter.metadata.deletionGracePeriodSeconds).toBe(5);
    expect(shorter.metadata.deletionTimestamp).toBe('2026-01-01T00:00:05Z');
    const now = t.remove('v1', 'Pod', 'default', 'running', { gracePeriodSeconds: 0 }).body as KubeObject;
    expect(now.metadata.name).toBe('running');
    expect(t.failure(() => t.get('v1', 'Pod', 'default', 'running')).code).toBe(404);

    t.create(pod('pending'));
    t.remove('v1', 'Pod', 'default', 'pending');
    expect(t.failure(() => t.get('v1', 'Pod', 'default', 'pending')).code).toBe(404);
  });

  it('checks delete preconditions', () => {
    const t = newTestServer();
    const cm = t.create(configMap('p'));
    const status = t.failure(() => t.remove('v1', 'ConfigMap', 'default', 'p', { preconditions: { uid: 'other' } }));
    expect(status.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "p": the UID in the precondition (other) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated`,
    );
    const rv = t.failure(() => t.remove('v1', 'ConfigMap', 'default', 'p', { preconditions: { resourceVersion: '1' } }));
    expect(rv.message).toContain('the ResourceVersion in the precondition (1) does not match the ResourceVersion in record');
  });
});

describe('propagation policy', () => {
  it('records Foreground and Orphan as finalizers and Background as none', () => {
    const t = newTestServer();
    t.create(deployment('fg'));
    const fg = t.remove('apps/v1', 'Deployment', 'default', 'fg', { propagationPolicy: 'Foreground' }).body as KubeObject;
    expect(fg.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(fg.metadata.deletionTimestamp).toBeDefined();
    expect(fg.metadata.generation).toBe(2);

    t.create(deployment('orphan'));
    const orphan = t.remove('apps/v1', 'Deployment', 'default', 'orphan', { propagationPolicy: 'Orphan' }).body as KubeObject;
    expect(orphan.metadata.finalizers).toEqual(['orphan']);

    t.create(deployment('bg'));
    const bg = t.remove('apps/v1', 'Deployment', 'default', 'bg', { propagationPolicy: 'Background' });
    expect((bg.body as Status).status).toBe('Success');

    t.create(deployment('cascade'));
    expect(t.remove('apps/v1', 'Deployment', 'default', 'cascade', { orphanDependents: false }).code).toBe(200);
  });

  it('refuses an unknown propagation policy, and both orphanDependents and propagationPolicy', () => {
    const t = newTestServer();
    t.create(deployment('web'));
    const status = t.failure(() => t.remove('apps/v1', 'Deployment', 'default', 'web', { propagationPolicy: 'Sideways' }));
    expect(status).toMatchObject({
      code: 422,
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    });
    const both = t.failure(() => t.remove('apps/v1', 'Deployment', 'default', 'web', { propagationPolicy: 'Orphan', orphanDependents: true }));
    expect(both.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    );
  });
});

describe('namespaces', () => {
  it('terminate, refuse new content, and go once finalized', () => {
    const t = newTestServer();
    t.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    t.create(configMap('cfg', 'team'));
    const res = t.remove('v1', 'Namespace', undefined, 'team');
    const ns = res.body as KubeObject & { status: { phase: string }; spec: { finalizers: string[] } };
    expect(ns.status.phase).toBe('Terminating');
    expect(ns.metadata.deletionTimestamp).toBeDefined();
    expect(ns.spec.finalizers).toEqual(['kubernetes']);
    const refused = t.failure(() => t.create(configMap('late', 'team')));
    expect(refused).toMatchObject({
      code: 403,
      message: 'configmaps "late" is forbidden: unable to create new content in namespace team because it is being terminated',
    });
    // Still there: the namespace controller has not finalized it.
    expect(t.get('v1', 'Namespace', undefined, 'team').metadata.name).toBe('team');

    const current = t.get('v1', 'Namespace', undefined, 'team');
    t.server.handle({
      verb: 'update',
      group: '',
      version: 'v1',
      resource: 'namespaces',
      name: 'team',
      subresource: 'finalize',
      body: { ...current, spec: { finalizers: [] } },
    });
    expect(t.failure(() => t.get('v1', 'Namespace', undefined, 'team')).code).toBe(404);
  });

  it('may not delete default', () => {
    const t = newTestServer();
    const status = t.failure(() => t.remove('v1', 'Namespace', undefined, 'default'));
    expect(status).toMatchObject({ code: 403, message: 'namespaces "default" is forbidden: this namespace may not be deleted' });
  });

  it('refuses objects in a namespace that does not exist', () => {
    const t = newTestServer();
    expect(t.failure(() => t.create(configMap('x', 'nope')))).toMatchObject({ code: 404, message: 'namespaces "nope" not found' });
  });
});

describe('deletecollection', () => {
  it('deletes what the selector matches, each through the delete path', () => {
    const t = newTestServer();
    t.create(configMap('a', 'default', { metadata: { labels: { app: 'x' } } }));
    t.create(configMap('b', 'default', { metadata: { labels: { app: 'x' }, finalizers: ['example.com/hold'] } }));
    t.create(configMap('c', 'default', { metadata: { labels: { app: 'y' } } }));
    const res = t.server.handle({ verb: 'deletecollection', ...t.target('v1', 'ConfigMap', 'default'), options: { labelSelector: 'app=x' } });
    expect((res.body as { items: KubeObject[] }).items.map((i) => i.metadata.name)).toEqual(['a', 'b']);
    const left = t.list('v1', 'ConfigMap', 'default').items;
    expect(left.map((i) => i.metadata.name)).toEqual(['b', 'c']);
    expect(left[0].metadata.deletionTimestamp).toBeDefined();
  });
});
