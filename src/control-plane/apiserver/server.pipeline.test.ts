import { describe, expect, it } from 'vitest';
import { newForbidden } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { TraceKind } from '../../shared/protocol/trace';
import { defaultAdmissionChain } from './admission/chain';
import type { MutatingAdmissionPlugin, UserInfo, ValidatingAdmissionPlugin } from './types';
import { configMap, newTestServer, type TestServer } from './handlers/test-harness';

const alice: UserInfo = { username: 'alice', groups: [] };

function stagesOf(t: TestServer, requestId: string): string[] {
  return t.trace
    .filter((e) => e.kind === TraceKind.ApiStage && e.requestId === requestId)
    .map((e) => `${e.data.stage}:${e.data.decision}`);
}

function lastRequestId(t: TestServer): string {
  return [...t.trace].reverse().find((e) => e.kind === TraceKind.ApiRequest)!.requestId!;
}

function grantAliceConfigMapReads(t: TestServer): void {
  t.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'cm-reader', namespace: 'default' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
  });
  t.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'alice-reads', namespace: 'default' },
    subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
    roleRef: { kind: 'Role', name: 'cm-reader', apiGroup: 'rbac.authorization.k8s.io' },
  });
}

describe('RBAC through the pipeline', () => {
  it('allows what a RoleBinding grants and denies the rest with the real texts', () => {
    const t = newTestServer();
    t.create(configMap('cfg'));
    grantAliceConfigMapReads(t);
    expect(t.list('v1', 'ConfigMap', 'default', {}, alice).items.map((i) => i.metadata.name)).toEqual(['cfg']);
    expect(t.get('v1', 'ConfigMap', 'default', 'cfg', alice).metadata.name).toBe('cfg');

    const create = t.failure(() => t.create(configMap('mine'), {}, alice));
    expect(create).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default"',
    });
    const otherNs = t.failure(() => t.list('v1', 'ConfigMap', 'kube-system', {}, alice));
    expect(otherNs.message).toBe('configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "kube-system"');
    const cluster = t.failure(() => t.list('v1', 'Namespace', undefined, {}, alice));
    expect(cluster.message).toBe('namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope');
    const named = t.failure(() => t.remove('v1', 'ConfigMap', 'default', 'cfg', {}, alice));
    expect(named.message).toBe('configmaps "cfg" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "default"');
  });

  it('acts as the current user when a request names none', () => {
    const t = newTestServer();
    grantAliceConfigMapReads(t);
    t.server.currentUser = alice;
    expect(t.failure(() => t.create(configMap('x'))).code).toBe(403);
    expect(t.list('v1', 'ConfigMap', 'default').items).toEqual([]);
  });

  it('impersonation needs the impersonate verb', () => {
    const t = newTestServer();
    const status = t.failure(() =>
      t.server.handle({ verb: 'list', ...t.target('v1', 'ConfigMap', 'default'), user: alice, impersonate: { username: 'bob' } }),
    );
    expect(status.message).toBe('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
    const asAlice = t.failure(() => t.server.handle({ verb: 'create', ...t.target('v1', 'ConfigMap', 'default'), body: configMap('x'), impersonate: { username: 'alice' } }));
    expect(asAlice.message).toContain('User "alice" cannot create resource "configmaps"');
  });
});

describe('pipeline order in the trace', () => {
  function recordingPlugins(calls: string[]): { mutatingPlugins: MutatingAdmissionPlugin[]; validatingPlugins: ValidatingAdmissionPlugin[] } {
    const chain = defaultAdmissionChain();
    const mutating: MutatingAdmissionPlugin = {
      name: 'Recorder',
      handles: () => true,
      admit(attrs) {
        calls.push(`mutate ${attrs.operation} labels=${JSON.stringify(attrs.object?.metadata.labels ?? null)}`);
        if (attrs.object && attrs.object.metadata.name === 'mutated') {
          attrs.object.metadata.labels = { ...attrs.object.metadata.labels, 'added-by': 'admission' };
        }
        if (attrs.object && attrs.object.metadata.name === 'break') attrs.object.metadata.labels = { bad: 'not valid!' };
      },
    };
    const validating: ValidatingAdmissionPlugin = {
      name: 'Gate',
      handles: () => true,
      validate(attrs) {
        calls.push(`validate ${attrs.operation} labels=${JSON.stringify(attrs.object?.metadata.labels ?? null)}`);
        if (attrs.object?.metadata.name === 'refused') throw newForbidden({ group: '', resource: 'configmaps' }, 'refused', 'not today');
      },
    };
    return { mutatingPlugins: [...chain.mutating, mutating], validatingPlugins: [...chain.validating, validating] };
  }

  it('records every stage in order for a create, mutating admission before validation', () => {
    const calls: string[] = [];
    const t = newTestServer(recordingPlugins(calls));
    calls.length = 0; // bootstrap's creates went through the recorder too
    const created = t.create(configMap('mutated', 'default', { metadata: { labels: { app: 'x' } } }));
    expect(created.metadata.labels).toEqual({ app: 'x', 'added-by': 'admission' });
    expect(stagesOf(t, lastRequestId(t))).toEqual([
      'authentication:pass',
      'authorization:pass',
      'decode:pass',
      'defaulting:pass',
      'mutating-admission:pass',
      'defaulting:pass',
      'validation:pass',
      'validating-admission:pass',
      'persistence:pass',
    ]);
    expect(calls).toEqual(['mutate CREATE labels={"app":"x"}', 'validate CREATE labels={"app":"x","added-by":"admission"}']);
    const req = t.trace.filter((e) => e.requestId === lastRequestId(t));
    expect(req[0].kind).toBe(TraceKind.ApiRequest);
    expect(req[req.length - 1]).toMatchObject({ kind: TraceKind.ApiResponse, data: { code: 201 } });
    expect(req.slice(1).every((e) => e.cause === req[0].seq)).toBe(true);
  });

  it('refuses at RBAC before any admission plugin runs', () => {
    const calls: string[] = [];
    const t = newTestServer(recordingPlugins(calls));
    calls.length = 0;
    expect(t.failure(() => t.create(configMap('x'), {}, alice)).code).toBe(403);
    expect(stagesOf(t, lastRequestId(t))).toEqual(['authentication:pass', 'authorization:refuse']);
    expect(calls).toEqual([]);
  });

  it('validates what mutating admission produced (422, nothing stored) and stops at a validating refusal', () => {
    const calls: string[] = [];
    const t = newTestServer(recordingPlugins(calls));
    const broken = t.failure(() => t.create(configMap('break')));
    expect(broken.code).toBe(422);
    expect(stagesOf(t, lastRequestId(t)).slice(-2)).toEqual(['defaulting:pass', 'validation:refuse']);
    expect(t.failure(() => t.get('v1', 'ConfigMap', 'default', 'break')).code).toBe(404);

    const refused = t.failure(() => t.create(configMap('refused')));
    expect(refused.message).toBe('configmaps "refused" is forbidden: not today');
    expect(stagesOf(t, lastRequestId(t)).slice(-2)).toEqual(['validation:pass', 'validating-admission:refuse']);
  });

  it('runs update admission with the old object', () => {
    const seen: { op: string; old?: KubeObject }[] = [];
    const t = newTestServer({
      mutatingPlugins: [
        ...defaultAdmissionChain().mutating,
        { name: 'Spy', handles: (op) => op === 'UPDATE', admit: (attrs) => void seen.push({ op: attrs.operation, old: attrs.oldObject }) },
      ],
      validatingPlugins: defaultAdmissionChain().validating,
    });
    const cm = t.create(configMap('cfg', 'default', { data: { a: '1' } }));
    t.update({ ...cm, data: { a: '2' } } as KubeObject);
    expect(seen).toHaveLength(1);
    expect((seen[0].old as unknown as { data: object }).data).toEqual({ a: '1' });
  });

  it('uses field errors with causes for the editor', () => {
    const t = newTestServer();
    const status = t.failure(() => t.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' } }));
    expect(status.code).toBe(422);
    expect(status.details?.causes).toContainEqual({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
  });
});
