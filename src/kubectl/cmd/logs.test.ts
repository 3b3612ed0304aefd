// kubectl logs against running simulated containers: what the kubelet kept of their output, as kubectl v1.32
// prints it, with its defaults (first container, "Found N pods"), flags and error texts.
import type { Pod } from 'kubernetes-types/core/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { createAll, kubectl, observedCluster } from '../describe/test-cluster';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await observedCluster();
  createAll(cluster, `apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers: [{name: nginx, image: 'nginx:1.27.3'}]
---
apiVersion: v1
kind: Pod
metadata: {name: crashy}
spec:
  containers: [{name: app, image: 'busybox:1.36', command: [sh, -c, 'echo starting; echo giving up; exit 1']}]
---
apiVersion: v1
kind: Pod
metadata: {name: duo, labels: {app: duo}}
spec:
  initContainers: [{name: setup, image: 'busybox:1.36', command: [sh, -c, 'echo prepared']}]
  containers:
  - {name: main, image: 'busybox:1.36', command: [sh, -c, 'echo main up; sleep 3600']}
  - {name: side, image: 'busybox:1.36', command: [sh, -c, 'echo side up; sleep 3600']}
---
apiVersion: v1
kind: Pod
metadata: {name: stuck}
spec:
  containers: [{name: c, image: 'nginx:1.27', volumeMounts: [{name: v, mountPath: /v}]}]
  volumes: [{name: v, configMap: {name: missing}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: hello}
spec:
  replicas: 2
  selector: {matchLabels: {app: hello}}
  template:
    metadata: {labels: {app: hello}}
    spec:
      containers: [{name: hello, image: 'busybox:1.36', command: [sh, -c, 'echo hello from $(hostname); sleep 3600']}]
`);
  cluster.advance(60_000);
});

function pod(name: string): Pod {
  return cluster.client.pods.get(name, { namespace: 'default' });
}

/** nginx's start-up lines with the time stamp its entrypoint writes. */
function nginxLines(startedAt: string): string {
  const d = new Date(Date.parse(startedAt) + 50);
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
  return `/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration
/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/
/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh
10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf
10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf
/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh
/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh
/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh
/docker-entrypoint.sh: Configuration complete; ready for start up
${stamp} [notice] 1#1: using the "epoll" event method
${stamp} [notice] 1#1: nginx/1.27.3
${stamp} [notice] 1#1: OS: Linux 6.8.0-kubeplay
${stamp} [notice] 1#1: getrlimit(RLIMIT_NOFILE): 1048576:1048576
${stamp} [notice] 1#1: start worker processes
${stamp} [notice] 1#1: start worker process 29
`;
}

describe('kubectl logs', () => {
  it('prints nginx\'s start-up lines', async () => {
    const startedAt = pod('web').status!.containerStatuses![0].state!.running!.startedAt!;
    expect(await kubectl(cluster, 'kubectl logs web')).toMatchObject({ stdout: nginxLines(startedAt), stderr: '', exitCode: 0 });
    expect((await kubectl(cluster, 'kubectl logs pod/web --tail=2')).stdout).toBe(nginxLines(startedAt).split('\n').slice(-3).join('\n'));
  });

  it('--timestamps prefixes the kubelet\'s RFC3339Nano time', async () => {
    const startedAt = pod('web').status!.containerStatuses![0].state!.running!.startedAt!;
    const out = (await kubectl(cluster, 'kubectl logs web --tail=1 --timestamps')).stdout;
    const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z) (.*)\n$/.exec(out)!;
    expect(m[2]).toBe(nginxLines(startedAt).split('\n').at(-2));
    // The status keeps whole seconds; the log line was written within the second the container started.
    expect(Date.parse(m[1]) - Date.parse(startedAt)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(m[1]) - Date.parse(startedAt)).toBeLessThan(1_100);
  });

  it('a crash-looping container: the last run\'s output, and --previous the run before it', async () => {
    expect(pod('crashy').status!.containerStatuses![0].restartCount).toBeGreaterThan(1);
    expect(await kubectl(cluster, 'kubectl logs crashy')).toMatchObject({ stdout: 'starting\ngiving up\n', exitCode: 0 });
    expect(await kubectl(cluster, 'kubectl logs crashy --previous')).toMatchObject({ stdout: 'starting\ngiving up\n', exitCode: 0 });
  });

  it('--previous without an earlier run is the API server\'s BadRequest', async () => {
    expect(await kubectl(cluster, 'kubectl logs web -p')).toMatchObject({
      stdout: '',
      stderr: 'Error from server (BadRequest): previous terminated container "nginx" in pod "web" not found\n',
      exitCode: 1,
    });
  });

  it('a container that has not started is waiting to start', async () => {
    expect(await kubectl(cluster, 'kubectl logs stuck')).toMatchObject({
      stderr: 'Error from server (BadRequest): container "c" in pod "stuck" is waiting to start: ContainerCreating\n',
      exitCode: 1,
    });
  });

  it('defaults to the first container of a multi-container pod and says so; -c and --all-containers choose', async () => {
    expect(await kubectl(cluster, 'kubectl logs duo')).toMatchObject({ stdout: 'main up\n', stderr: 'Defaulted container "main" out of: main, side, setup (init)\n', exitCode: 0 });
    expect(await kubectl(cluster, 'kubectl logs duo -c side')).toMatchObject({ stdout: 'side up\n', stderr: '' });
    expect((await kubectl(cluster, 'kubectl logs duo side')).stdout).toBe('side up\n');
    expect((await kubectl(cluster, 'kubectl logs duo --all-containers --prefix')).stdout).toBe('[pod/duo/setup] prepared\n[pod/duo/main] main up\n[pod/duo/side] side up\n');
    expect(await kubectl(cluster, 'kubectl logs duo -c nope')).toMatchObject({ stderr: 'error: container nope is not valid for pod duo\n', exitCode: 1 });
  });

  it('TYPE/NAME reads one of its pods; -l reads every matching pod', async () => {
    const pods = cluster.client.pods.list({ namespace: 'default', labelSelector: 'app=hello' }).items.map((p) => p.metadata.name!);
    const result = await kubectl(cluster, 'kubectl logs deploy/hello');
    expect(result.stderr).toMatch(new RegExp(`^Found 2 pods, using pod/(${pods.join('|')})\n$`));
    const picked = /pod\/(\S+)\n/.exec(result.stderr)![1];
    expect(result.stdout).toBe(`hello from ${picked}\n`);
    const all = await kubectl(cluster, 'kubectl logs -l app=hello --prefix');
    expect(all.stdout.split('\n').filter(Boolean).sort()).toEqual(pods.map((p) => `[pod/${p}/hello] hello from ${p}`).sort());
  });

  it('errors as kubectl prints them', async () => {
    expect(await kubectl(cluster, 'kubectl logs nothere')).toMatchObject({ stderr: 'error: error from server (NotFound): pods "nothere" not found in namespace "default"\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl logs')).toMatchObject({
      stderr: "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n",
      exitCode: 1,
    });
    expect((await kubectl(cluster, 'kubectl logs web -l app=web')).stderr).toBe("error: only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples\n");
    expect((await kubectl(cluster, 'kubectl logs duo -c main --all-containers')).stderr).toBe('error: --all-containers=true should not be specified with container name main\n');
    expect((await kubectl(cluster, 'kubectl logs web --tail=-2')).stderr).toBe('error: --tail must be greater than or equal to -1\n');
  });

  it('-f streams what the container writes until Ctrl+C', async () => {
    createAll(cluster, "apiVersion: v1\nkind: Pod\nmetadata: {name: ticker}\nspec:\n  containers: [{name: t, image: 'busybox:1.36', command: [sh, -c, 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 2; done']}]\n");
    cluster.advance(10_000);
    const before = (await kubectl(cluster, 'kubectl logs ticker')).stdout.split('\n').filter(Boolean);
    expect(before.length).toBeGreaterThan(2);
    const streamed: string[] = [];
    const result = await kubectl(cluster, 'kubectl logs -f ticker', { maxTimeMs: 10_000, onLine: (_s, t) => streamed.push(t) });
    expect(result.exitCode).toBe(130);
    expect(result.cancelled).toBe(true);
    // Everything up to now, then about one line every two seconds for ten seconds.
    expect(streamed.slice(0, before.length)).toEqual(before);
    expect(streamed.length - before.length).toBeGreaterThanOrEqual(4);
    expect(streamed.every((l) => /^tick \d+$/.test(l))).toBe(true);
  });

  it('-f ends when the container stops', async () => {
    createAll(cluster, "apiVersion: v1\nkind: Pod\nmetadata: {name: short}\nspec:\n  restartPolicy: Never\n  containers: [{name: s, image: 'busybox:1.36', command: [sh, -c, 'echo one; sleep 3; echo two; sleep 3; echo three']}]\n");
    cluster.advance(2_000);
    const result = await kubectl(cluster, 'kubectl logs -f short', { maxTimeMs: 60_000 });
    expect(result).toMatchObject({ stdout: 'one\ntwo\nthree\n', exitCode: 0, cancelled: false });
  });
});
