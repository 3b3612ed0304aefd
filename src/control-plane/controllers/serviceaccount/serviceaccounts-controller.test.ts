import { describe, expect, it } from 'vitest';
import { newForbidden, type StatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { TraceKind, type TraceEvent } from '../../../shared/protocol/trace';
import type { ApiRequest, ApiResponse } from '../../apiserver/types';
import { Client } from '../../client/client';
import { SharedInformerFactory } from '../../informers/factory';
import { VirtualClock } from '../../sim/virtual-clock';
import { FakeApiServer } from '../../testing/fake-apiserver';
import { TraceBus } from '../../trace/trace-bus';
import { NamespaceTerminatingCause, ServiceAccountsController } from './serviceaccounts-controller';

/** A fake server that can refuse ServiceAccount creates, like admission would. */
class RefusingServer extends FakeApiServer {
  refuse: StatusError[] = [];
  override handle(req: ApiRequest): ApiResponse {
    if (req.verb === 'create' && req.resource === 'serviceaccounts' && this.refuse.length > 0) throw this.refuse.shift()!;
    return super.handle(req);
  }
}

function ns(name: string, phase = 'Active'): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } };
}

function setup(initialNamespaces: string[] = []) {
  const clock = new VirtualClock({ startTime: 0 });
  const trace = new TraceBus({ clock });
  // Reconcile ends are not kept in the ring: they are read as a subscriber (the UI) sees them.
  const ends: TraceEvent[] = [];
  trace.subscribe((e) => e.kind === TraceKind.ReconcileEnd && ends.push(e));
  const server = new RefusingServer({ clock });
  const client = new Client(server);
  for (const n of initialNamespaces) client.namespaces.create(ns(n));
  const informers = new SharedInformerFactory({ client, clock, trace });
  const controller = new ServiceAccountsController({ client, informers, clock, trace });
  informers.start();
  informers.waitForCacheSync(clock);
  controller.run();
  const accounts = () =>
    client.serviceAccounts
      .list()
      .items.map((sa) => `${sa.metadata.namespace}/${sa.metadata.name}`)
      .sort();
  return { clock, trace, ends, server, client, informers, controller, accounts };
}

describe('ServiceAccountsController', () => {
  it('creates the default ServiceAccount in existing and new active namespaces', () => {
    const { clock, client, accounts } = setup(['default', 'kube-system']);
    clock.runUntilIdle();
    expect(accounts()).toEqual(['default/default', 'kube-system/default']);
    client.namespaces.create(ns('team-a'));
    clock.runUntilIdle();
    expect(accounts()).toEqual(['default/default', 'kube-system/default', 'team-a/default']);
    const sa = client.serviceAccounts.get('default', { namespace: 'team-a' });
    expect(sa).toMatchObject({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'team-a' } });
  });

  it('recreates the default ServiceAccount when it is deleted', () => {
    const { clock, client, accounts } = setup(['default']);
    clock.runUntilIdle();
    const before = client.serviceAccounts.get('default', { namespace: 'default' }).metadata.uid;
    client.serviceAccounts.delete('default', { namespace: 'default' });
    expect(accounts()).toEqual([]);
    clock.runUntilIdle();
    expect(accounts()).toEqual(['default/default']);
    expect(client.serviceAccounts.get('default', { namespace: 'default' }).metadata.uid).not.toBe(before);
  });

  it('leaves other service accounts alone and writes nothing when default exists', () => {
    const { clock, client, server, accounts } = setup(['default']);
    clock.runUntilIdle();
    client.serviceAccounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' } });
    client.serviceAccounts.delete('builder', { namespace: 'default' });
    const writesBefore = server.requests.filter((r) => r.verb === 'create').length;
    clock.runUntilIdle();
    expect(server.requests.filter((r) => r.verb === 'create').length).toBe(writesBefore);
    expect(accounts()).toEqual(['default/default']);
  });

  it('skips namespaces that are not active', () => {
    const { clock, client, accounts } = setup();
    client.namespaces.create(ns('going', 'Terminating'));
    clock.runUntilIdle();
    expect(accounts()).toEqual([]);
  });

  it('retries a refused create with backoff until it succeeds', () => {
    const { clock, server, ends, accounts } = setup();
    server.refuse = [
      newForbidden({ group: '', resource: 'serviceaccounts' }, 'default', 'quota'),
      newForbidden({ group: '', resource: 'serviceaccounts' }, 'default', 'quota'),
    ];
    new Client(server).namespaces.create(ns('team-b'));
    clock.runUntilIdle();
    expect(accounts()).toEqual(['team-b/default']);
    const outcomes = ends.map((e) => [e.data.key, e.data.outcome, e.time]);
    expect(outcomes).toEqual([
      ['team-b', 'requeued', 0],
      ['team-b', 'requeued', 5],
      ['team-b', 'success', 15],
    ]);
  });

  it('ignores the NamespaceTerminating refusal', () => {
    const { clock, server, ends, accounts } = setup();
    const refusal = newForbidden(
      { group: '', resource: 'serviceaccounts' },
      'default',
      'unable to create new content in namespace team-c because it is being terminated',
    );
    refusal.status.details!.causes = [{ reason: NamespaceTerminatingCause, message: 'namespace team-c is being terminated', field: 'metadata.namespace' }];
    server.refuse = [refusal];
    new Client(server).namespaces.create(ns('team-c'));
    clock.runUntilIdle();
    expect(accounts()).toEqual([]);
    expect(ends.map((e) => e.data.outcome)).toEqual(['success']);
  });
});
