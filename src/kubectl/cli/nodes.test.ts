import { describe, expect, it } from 'vitest';
import { commandTestCluster, create } from '../testing';
import { kubectlNodes, logTimestamp } from './nodes';

const ticker = `apiVersion: v1
kind: Pod
metadata: {name: ticker, namespace: default}
spec:
  nodeName: node-1
  containers:
  - name: c
    image: busybox:1.36
    command: [sh, -c, 'while true; do echo tick; sleep 2; done']
`;

describe('kubectlNodes over the simulated machines', () => {
  it("reads a container's log from its node's kubelet, with kubelet timestamps when asked", async () => {
    const cluster = await commandTestCluster();
    create(cluster, ticker);
    cluster.runUntil(() => cluster.client.pods.get('ticker', { namespace: 'default' }).status?.phase === 'Running', 60_000);
    cluster.advance(5_000);
    const nodes = kubectlNodes(cluster.nodes, cluster.clock);
    const plain = nodes.logs('default', 'ticker', undefined, {});
    expect('lines' in plain && plain.lines.length).toBeGreaterThanOrEqual(2);
    expect('lines' in plain && plain.lines.every((l) => l === 'tick')).toBe(true);
    const stamped = nodes.logs('default', 'ticker', 'c', { timestamps: true, tailLines: 1 });
    expect('lines' in stamped && stamped.lines).toHaveLength(1);
    expect('lines' in stamped && stamped.lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z tick$/);
    expect(nodes.logs('default', 'nope', undefined, {})).toEqual({ error: 'pods "nope" not found' });
  });

  it('follows a log: only the lines written after it started, until stopped', async () => {
    const cluster = await commandTestCluster();
    create(cluster, ticker);
    cluster.runUntil(() => cluster.client.pods.get('ticker', { namespace: 'default' }).status?.phase === 'Running', 60_000);
    cluster.advance(3_000);
    const nodes = kubectlNodes(cluster.nodes, cluster.clock);
    const before = nodes.logs('default', 'ticker', undefined, {});
    const seen: string[] = [];
    let ended = false;
    const stop = nodes.followLogs!('default', 'ticker', undefined, (line) => seen.push(line), () => (ended = true));
    cluster.advance(10_000);
    const after = nodes.logs('default', 'ticker', undefined, {});
    const written = 'lines' in after && 'lines' in before ? after.lines.length - before.lines.length : -1;
    expect(written).toBeGreaterThanOrEqual(4);
    expect(seen).toHaveLength(written);
    stop();
    cluster.advance(10_000);
    expect(seen).toHaveLength(written);
    expect(ended).toBe(false);
  });

  it('formats timestamps with nine fractional digits', () => {
    expect(logTimestamp(Date.UTC(2026, 0, 1, 0, 0, 5, 123))).toBe('2026-01-01T00:00:05.123000000Z');
  });
});
