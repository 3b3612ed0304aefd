// kubectl events against a running cluster: the table kubectl v1.32 prints (LAST SEEN TYPE REASON OBJECT
// MESSAGE, oldest first, "(xN over M)" for repeats), --for, --types, -A, -o, -w and the client-side errors.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { createAll, kubectl, observedCluster } from '../describe/test-cluster';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await observedCluster();
  createAll(cluster, `apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: nginx, image: 'nginx:1.27'}]
---
apiVersion: v1
kind: Namespace
metadata: {name: quiet}
---
apiVersion: v1
kind: Namespace
metadata: {name: watched}
`);
  cluster.advance(30_000);
});

describe('kubectl events', () => {
  it('lists the events of one object with --for TYPE/NAME', async () => {
    const node = cluster.client.pods.get('web', { namespace: 'default' }).spec!.nodeName!;
    const pulled = cluster.client.events.list({ namespace: 'default', fieldSelector: 'involvedObject.name=web' }).items.find((e) => e.reason === 'Pulled')!.message!;
    const result = await kubectl(cluster, 'kubectl events --for pod/web');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`LAST SEEN   TYPE     REASON      OBJECT    MESSAGE
30s         Normal   Scheduled   Pod/web   Successfully assigned default/web to ${node}
30s         Normal   Pulling     Pod/web   Pulling image "nginx:1.27"
28s         Normal   Pulled      Pod/web   ${pulled}
28s         Normal   Created     Pod/web   Created container: nginx
28s         Normal   Started     Pod/web   Started container nginx
`);
  });

  it('sorts the namespace\'s events oldest first and shows repeats as "(xN over M)"; --types filters', async () => {
    createAll(cluster, "apiVersion: v1\nkind: Pod\nmetadata: {name: crashy}\nspec:\n  containers: [{name: app, image: 'busybox:1.36', command: [sh, -c, 'exit 1']}]\n");
    cluster.advance(120_000);
    const backOff = cluster.client.events.list({ namespace: 'default', fieldSelector: 'involvedObject.name=crashy' }).items.find((e) => e.reason === 'BackOff')!;
    const since = (ts: string) => Math.floor((cluster.clock.now() - Date.parse(ts)) / 1000);
    const last = since(backOff.lastTimestamp!);
    const first = since(backOff.firstTimestamp!);
    const result = await kubectl(cluster, 'kubectl events --types=Warning');
    const interval = `${last}s (x${backOff.count} over ${first}s)`;
    expect(result.stdout).toBe(
      `${'LAST SEEN'.padEnd(interval.length + 3)}TYPE      REASON    OBJECT       MESSAGE\n${interval}   Warning   BackOff   Pod/crashy   Back-off restarting failed container app in pod crashy_default(${backOff.involvedObject.uid})\n`,
    );
    const all = (await kubectl(cluster, 'kubectl events')).stdout.trimEnd().split('\n');
    expect(all[0]).toMatch(/^LAST SEEN +TYPE +REASON +OBJECT +MESSAGE$/);
    const expected = cluster.client.events
      .list({ namespace: 'default' })
      .items.map((e, i) => ({ e, i }))
      .sort((a, b) => Date.parse(a.e.lastTimestamp!) - Date.parse(b.e.lastTimestamp!) || a.i - b.i)
      .map(({ e }) => `${e.reason} ${e.involvedObject.kind}/${e.involvedObject.name}`);
    const columns = all.slice(1).map((l) => /(Normal|Warning) +(\S+) +(\S+)/.exec(l)!.slice(2, 4).join(' '));
    expect(columns).toEqual(expected);
  });

  it('-A adds the NAMESPACE column; an empty namespace says so on stderr', async () => {
    const result = await kubectl(cluster, 'kubectl events -A --for node/node-1');
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE   LAST SEEN   TYPE     REASON +OBJECT +MESSAGE$/);
    expect(lines.slice(1).every((l) => l.startsWith('default     '))).toBe(true);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/)[3])).toContain('Starting');
    expect(await kubectl(cluster, 'kubectl events -n quiet')).toMatchObject({ stdout: '', stderr: 'No events found in quiet namespace.\n', exitCode: 0 });
  });

  it('prints the EventList with -o yaml and names with -o name', async () => {
    const names = (await kubectl(cluster, 'kubectl events --for pod/web -o name')).stdout.trimEnd().split('\n');
    expect(names).toHaveLength(5);
    expect(names.every((n) => /^event\/web\.[0-9a-f]+$/.test(n))).toBe(true);
    const yaml = (await kubectl(cluster, 'kubectl events --for pod/web -o yaml')).stdout;
    expect(yaml.startsWith('apiVersion: v1\nitems:\n- ')).toBe(true);
    expect(yaml.endsWith('kind: EventList\nmetadata: {}\n')).toBe(true);
    expect(yaml).not.toContain('managedFields');
  });

  it('rejects bad --types and --for with kubectl\'s texts', async () => {
    expect(await kubectl(cluster, 'kubectl events --types=Foo')).toMatchObject({ stderr: 'error: valid --types are Normal or Warning\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl events --for web')).toMatchObject({ stderr: 'error: --for must be in resource/name form\n', exitCode: 1 });
    expect((await kubectl(cluster, 'kubectl events --for foo/web')).stderr).toBe('error: the server doesn\'t have a resource type "foo"\n');
  });

  it('-w prints what exists, then events as they happen, until Ctrl+C', async () => {
    const lines: string[] = [];
    const run = kubectl(cluster, 'kubectl events -w -n watched', { maxTimeMs: 20_000, onLine: (_s, t) => lines.push(t) });
    createAll(cluster, "apiVersion: v1\nkind: Pod\nmetadata: {name: late, namespace: watched}\nspec:\n  containers: [{name: c, image: 'nginx:1.27'}]\n");
    const result = await run;
    expect(result.exitCode).toBe(130);
    expect(lines[0]).toMatch(/^LAST SEEN   TYPE     REASON +OBJECT +MESSAGE$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/)[2])).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
  });
});
