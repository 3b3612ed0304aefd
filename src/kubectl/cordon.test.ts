import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { cordon, kubectlErrorMessage, uncordon } from './cordon';
import { commandTestCluster } from './testing';
import { newNotFound, newServiceUnavailable } from '../shared/api/status';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

describe('kubectl cordon / uncordon', () => {
  it('sets and clears spec.unschedulable, saying so as kubectl does', async () => {
    cluster = await commandTestCluster();
    const { client } = cluster;
    expect(cordon(client, 'node-2')).toEqual({ exitCode: 0, lines: [{ stream: 'stdout', text: 'node/node-2 cordoned' }] });
    expect(client.nodes.get('node-2').spec?.unschedulable).toBe(true);
    expect(cordon(client, 'node-2').lines).toEqual([{ stream: 'stdout', text: 'node/node-2 already cordoned' }]);
    expect(uncordon(client, 'node-2').lines).toEqual([{ stream: 'stdout', text: 'node/node-2 uncordoned' }]);
    // The field is omitempty: kubectl's patch clears it.
    expect(client.nodes.get('node-2').spec).not.toHaveProperty('unschedulable');
    expect(uncordon(client, 'node-2').lines).toEqual([{ stream: 'stdout', text: 'node/node-2 already uncordoned' }]);
  });

  it('dry runs change nothing', async () => {
    cluster = await commandTestCluster();
    const { client } = cluster;
    expect(cordon(client, 'node-1', { dryRun: 'client' }).lines).toEqual([{ stream: 'stdout', text: 'node/node-1 cordoned (dry run)' }]);
    expect(cordon(client, 'node-1', { dryRun: 'server' }).lines).toEqual([{ stream: 'stdout', text: 'node/node-1 cordoned (server dry run)' }]);
    expect(client.nodes.get('node-1').spec?.unschedulable).toBeUndefined();
  });

  it('prints the API error for an unknown node, and the connection error when the API server is down', async () => {
    cluster = await commandTestCluster();
    expect(cordon(cluster.client, 'node-9')).toEqual({ exitCode: 1, lines: [{ stream: 'stderr', text: 'Error from server (NotFound): nodes "node-9" not found' }] });
    cluster.endpoint.stop();
    expect(uncordon(cluster.client, 'node-1')).toEqual({
      exitCode: 1,
      lines: [{ stream: 'stderr', text: 'The connection to the server 10.96.0.1:443 was refused - did you specify the right host or port?' }],
    });
  });
});

describe('kubectlErrorMessage', () => {
  it('formats API errors with their reason, others as error: …', () => {
    expect(kubectlErrorMessage(newNotFound({ group: 'apps', resource: 'deployments' }, 'web'))).toBe('Error from server (NotFound): deployments.apps "web" not found');
    expect(kubectlErrorMessage(newServiceUnavailable('try later'))).toBe('Error from server (ServiceUnavailable): try later');
    expect(kubectlErrorMessage(new Error('boom'))).toBe('error: boom');
  });
});
