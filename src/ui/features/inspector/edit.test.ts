import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { deleteRequest, deletedMessage, editCancelledMessage, editableYaml, editedMessage, parseEdit, statusLines, statusOf, updateRequest } from './edit';
import type { Fixture } from './headless.fixture';
import { keysNamed, nginxFixture } from './headless.fixture';

let f: Fixture;
beforeEach(async () => {
  f = await nginxFixture();
});
afterEach(async () => {
  await f.h.close();
});

async function failure(p: Promise<unknown>): Promise<string[]> {
  try {
    await p;
  } catch (err) {
    return statusLines(statusOf(err));
  }
  throw new Error('the request succeeded');
}

describe('Edit: a PUT of the edited YAML', () => {
  it('shows the object without managedFields, knows an untouched buffer, and applies a change like kubectl edit', async () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    expect(deployment.metadata.managedFields).toBeDefined();
    const text = editableYaml(deployment);
    expect(text).not.toContain('managedFields');
    expect(text).toContain(`resourceVersion: "${deployment.metadata.resourceVersion}"`);
    expect(parseEdit(text, deployment)).toEqual({ outcome: 'unchanged' });
    expect(editCancelledMessage).toBe('Edit cancelled, no changes made.');

    const edited = text.replace('replicas: 3', 'replicas: 2');
    const parsed = parseEdit(edited, deployment);
    expect(parsed.outcome).toBe('changed');
    const res = await f.h.client.call('api/request', updateRequest('apps/deployments', deployment, edited));
    expect(editedMessage(res.body as KubeObject)).toBe('deployment.apps/nginx edited');
    f.h.cluster.advance(30_000);
    await f.sync();
    const after = f.get('apps/deployments', 'default/nginx') as KubeObject & { spec: { replicas: number }; status: { readyReplicas: number } };
    expect(after.spec.replicas).toBe(2);
    expect(after.status.readyReplicas).toBe(2);
    expect(keysNamed(f.store, '/pods', 'nginx-')).toHaveLength(2);
  });

  it('gets the real 409 when the object changed since the edit started', async () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const stale = editableYaml(deployment).replace('replicas: 3', 'replicas: 4');
    // Someone else changes it first.
    await f.h.client.call('api/request', updateRequest('apps/deployments', deployment, editableYaml(deployment).replace('replicas: 3', 'replicas: 5')));
    expect(await failure(f.h.client.call('api/request', updateRequest('apps/deployments', deployment, stale)))).toEqual([
      'Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "nginx": the object has been modified; please apply your changes to the latest version and try again',
    ]);
  });

  it('shows validation errors with their field causes, and strict decoding of unknown fields', async () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const text = editableYaml(deployment);
    const invalid = await failure(f.h.client.call('api/request', updateRequest('apps/deployments', deployment, text.replace('replicas: 3', 'replicas: -1'))));
    expect(invalid[0]).toMatch(/^Error from server \(Invalid\): Deployment.apps "nginx" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0/);
    expect(invalid).toContain('  spec.replicas: Invalid value: -1: must be greater than or equal to 0');

    const unknown = await failure(f.h.client.call('api/request', updateRequest('apps/deployments', deployment, text.replace('replicas: 3', 'replica: 3'))));
    expect(unknown[0]).toContain('strict decoding error: unknown field "spec.replica"');
  });

  it('reports a YAML syntax error without sending anything', () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const parsed = parseEdit(editableYaml(deployment).replace('replicas: 3', 'replicas: [3'), deployment);
    expect(parsed.outcome).toBe('invalid');
    expect(parsed.outcome === 'invalid' && parsed.message).toMatch(/^error: error parsing edited object at line \d+, column \d+: /);
    expect(parseEdit('- a\n- b\n', deployment)).toEqual({ outcome: 'invalid', message: 'error: the edited file does not contain an object' });
  });
});

describe('Delete with a propagation policy', () => {
  it('Foreground: the Deployment waits, Terminating, for its dependents, then is gone with them', async () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const res = await f.h.client.call('api/request', deleteRequest('apps/deployments', deployment, { propagationPolicy: 'Foreground' }));
    expect(deletedMessage(deployment)).toBe('deployment.apps "nginx" deleted');
    const body = res.body as KubeObject;
    expect(body.metadata.deletionTimestamp).toBeDefined();
    expect(body.metadata.finalizers).toContain('foregroundDeletion');
    f.h.cluster.advance(60_000);
    await f.sync();
    expect(keysNamed(f.store, 'apps/deployments', 'nginx')).toEqual([]);
    expect(keysNamed(f.store, 'apps/replicasets', 'nginx-')).toEqual([]);
    expect(keysNamed(f.store, '/pods', 'nginx-')).toEqual([]);
  });

  it('Orphan: the ReplicaSet stays, without its ownerReference; a grace period is passed on', async () => {
    const deployment = f.get('apps/deployments', 'default/nginx');
    const req = deleteRequest('apps/deployments', deployment, { propagationPolicy: 'Orphan', gracePeriodSeconds: 0 });
    expect(req.options).toEqual({ propagationPolicy: 'Orphan', gracePeriodSeconds: 0 });
    await f.h.client.call('api/request', req);
    f.h.cluster.advance(30_000);
    await f.sync();
    expect(keysNamed(f.store, 'apps/deployments', 'nginx')).toEqual([]);
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    expect(f.get('apps/replicasets', rsKey).metadata.ownerReferences ?? []).toEqual([]);
    expect(deletedMessage(f.get('/pods', keysNamed(f.store, '/pods', 'nginx-')[0]))).toMatch(/^pod "nginx-[a-z0-9]+-[a-z0-9]+" deleted$/);
  });
});
