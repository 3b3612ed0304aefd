import { describe, expect, it } from 'vitest';
import { newNotFound, StatusError } from '../../shared/api/status';
import type { WatchEvent } from '../../shared/api/types';
import type { ApiRequest, ApiResponse, UserInfo } from '../apiserver/types';
import { PatchType } from '../apiserver/types';
import { Client, type ApiServerPort, type RequestRecord, type WatchHandler } from './client';

/** Records every request and answers with a body naming it. */
class RecordingServer implements ApiServerPort {
  readonly requests: ApiRequest[] = [];
  readonly watches: { req: ApiRequest; handler: WatchHandler; stopped: boolean }[] = [];
  fail?: StatusError;
  handle(req: ApiRequest): ApiResponse {
    this.requests.push(req);
    if (this.fail) throw this.fail;
    return { code: req.verb === 'create' ? 201 : 200, body: { echo: req.verb, name: req.name } };
  }
  watch(req: ApiRequest, handler: WatchHandler) {
    const w = { req, handler, stopped: false };
    this.watches.push(w);
    return { stop: () => (w.stopped = true) };
  }
}

const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };

describe('Client', () => {
  it('turns typed calls into API requests', () => {
    const server = new RecordingServer();
    const client = new Client(server);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'prod' } } as const;
    client.pods.create(pod, { dryRun: true });
    client.pods.get('web', { namespace: 'prod' });
    client.deployments.list({ namespace: 'prod', labelSelector: 'app=web', limit: 10 });
    client.pods.update(pod);
    client.pods.updateStatus(pod);
    client.pods.patch('web', PatchType.MergePatch, { metadata: { labels: { a: 'b' } } }, { namespace: 'prod', fieldManager: 'me' });
    client.pods.apply(pod, { fieldManager: 'kubectl', force: true });
    client.pods.delete('web', { namespace: 'prod', gracePeriodSeconds: 0, propagationPolicy: 'Foreground' });
    client.pods.deleteCollection({ namespace: 'prod', labelSelector: 'x=y' });
    client.deployments.getScale('web', { namespace: 'prod' });
    client.deployments.updateScale('web', { metadata: { name: 'web', namespace: 'prod' }, spec: { replicas: 3 } });
    expect(server.requests).toEqual([
      { verb: 'create', group: '', version: 'v1', resource: 'pods', namespace: 'prod', body: pod, options: { dryRun: true } },
      { verb: 'get', group: '', version: 'v1', resource: 'pods', namespace: 'prod', name: 'web', options: {} },
      {
        verb: 'list',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        namespace: 'prod',
        options: { labelSelector: 'app=web', limit: 10 },
      },
      { verb: 'update', group: '', version: 'v1', resource: 'pods', namespace: 'prod', name: 'web', body: pod, options: {} },
      {
        verb: 'update',
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: 'prod',
        name: 'web',
        subresource: 'status',
        body: pod,
        options: {},
      },
      {
        verb: 'patch',
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: 'prod',
        name: 'web',
        patchType: PatchType.MergePatch,
        body: { metadata: { labels: { a: 'b' } } },
        options: { fieldManager: 'me' },
      },
      {
        verb: 'patch',
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: 'prod',
        name: 'web',
        patchType: PatchType.ApplyPatch,
        body: pod,
        options: { fieldManager: 'kubectl', force: true },
      },
      {
        verb: 'delete',
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: 'prod',
        name: 'web',
        options: { gracePeriodSeconds: 0, propagationPolicy: 'Foreground' },
      },
      { verb: 'deletecollection', group: '', version: 'v1', resource: 'pods', namespace: 'prod', options: { labelSelector: 'x=y' } },
      { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'prod', name: 'web', subresource: 'scale' },
      {
        verb: 'update',
        group: 'apps',
        version: 'v1',
        resource: 'deployments',
        namespace: 'prod',
        name: 'web',
        subresource: 'scale',
        body: { metadata: { name: 'web', namespace: 'prod' }, spec: { replicas: 3 } },
        options: {},
      },
    ]);
  });

  it('returns the response body and throws the server StatusError', () => {
    const server = new RecordingServer();
    const client = new Client(server);
    expect(client.configMaps.get('a', { namespace: 'x' })).toEqual({ echo: 'get', name: 'a' });
    server.fail = newNotFound({ group: '', resource: 'configmaps' }, 'a');
    expect(() => client.configMaps.get('a', { namespace: 'x' })).toThrow('configmaps "a" not found');
  });

  it('reaches any resource by GVR and shares one ResourceClient per resource', () => {
    const server = new RecordingServer();
    const client = new Client(server);
    const shirts = client.resource({ group: 'stable.example.com', version: 'v1', resource: 'shirts' });
    shirts.list();
    expect(server.requests[0]).toMatchObject({ verb: 'list', group: 'stable.example.com', resource: 'shirts' });
    expect(server.requests[0]).not.toHaveProperty('namespace');
    expect(client.pods).toBe(client.pods);
    expect(client.pods.gvr).toEqual({ group: '', version: 'v1', resource: 'pods' });
  });

  it('acts as another user with withUser, also for raw requests and watches', () => {
    const server = new RecordingServer();
    const admin = new Client(server);
    const asJane = admin.withUser(jane);
    admin.pods.list();
    asJane.pods.list();
    asJane.handle({ verb: 'get', group: '', version: 'v1', resource: 'nodes', name: 'n1' });
    asJane.handle({ verb: 'get', group: '', version: 'v1', resource: 'nodes', name: 'n1', user: { username: 'bob', groups: [] } });
    expect(server.requests.map((r) => r.user?.username)).toEqual([undefined, 'jane', 'jane', 'bob']);
    const events: WatchEvent[][] = [];
    const w = asJane.pods.watch({ namespace: 'a', resourceVersion: '5' }, (e) => events.push(e));
    expect(server.watches[0].req).toMatchObject({ verb: 'watch', resource: 'pods', namespace: 'a', user: jane, options: { resourceVersion: '5' } });
    server.watches[0].handler([{ type: 'ADDED', object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } }]);
    expect(events).toHaveLength(1);
    w.stop();
    expect(server.watches[0].stopped).toBe(true);
  });

  it('records the writes made inside record(), including failed ones', () => {
    const server = new RecordingServer();
    const client = new Client(server);
    const requests: RequestRecord[] = [];
    client.record(requests, () => {
      client.pods.get('a', { namespace: 'ns' });
      client.pods.create({ metadata: { name: 'b', namespace: 'ns' } });
      server.fail = newNotFound({ group: '', resource: 'pods' }, 'c');
      try {
        client.pods.delete('c', { namespace: 'ns' });
      } catch {
        // recorded below
      }
    });
    expect(requests).toEqual([
      { verb: 'create', resource: 'pods', namespace: 'ns', code: 201 },
      { verb: 'delete', resource: 'pods', namespace: 'ns', name: 'c', code: 404 },
    ]);
  });
});
