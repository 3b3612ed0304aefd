import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod } from 'kubernetes-types/core/v1';
import { kubeletTestBed, type KubeletTestBed } from './testing';

/** Samples the pod every stepMs for ms and returns the distinct (time-stamped) values of f. */
function watchPod<T>(tb: KubeletTestBed, name: string, ms: number, f: (pod: Pod | undefined) => T, stepMs = 500): { at: number; value: T }[] {
  const start = tb.cluster.clock.now();
  const out: { at: number; value: T }[] = [];
  let last = '';
  for (let t = 0; t <= ms; t += stepMs) {
    const value = f(tb.pod(name));
    const text = JSON.stringify(value);
    if (text !== last) out.push({ at: tb.cluster.clock.now() - start, value });
    last = text;
    tb.cluster.clock.advance(stepMs);
  }
  return out;
}

function stateOf(s: ContainerStatus | undefined): string {
  if (!s?.state) return 'none';
  if (s.state.waiting) return `waiting:${s.state.waiting.reason}`;
  if (s.state.running) return 'running';
  return `terminated:${s.state.terminated?.reason}:${s.state.terminated?.exitCode}`;
}

const pod = (name: string, container: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n${container}`;

describe('container lifecycle on the simulated runtime', () => {
  it('runs init containers in order, each to completion, before the app container', async () => {
    const tb = await kubeletTestBed();
    tb.run(
      pod(
        'init-demo',
        `  initContainers:
  - {name: first, image: busybox:1.28, command: ['sh', '-c', 'echo first; sleep 3']}
  - {name: second, image: busybox:1.28, command: ['sh', '-c', 'sleep 2']}
  containers:
  - {name: app, image: nginx}`,
      ),
    );
    const states = watchPod(tb, 'init-demo', 20_000, (p) => [
      p?.status?.phase,
      ...(p?.status?.initContainerStatuses ?? []).map(stateOf),
      stateOf(p?.status?.containerStatuses?.[0]),
    ]);
    const seq = states.map((s) => s.value.join(' '));
    expect(seq).toContain('Pending running waiting:PodInitializing waiting:PodInitializing');
    expect(seq).toContain('Pending terminated:Completed:0 running waiting:PodInitializing');
    expect(seq[seq.length - 1]).toBe('Running terminated:Completed:0 terminated:Completed:0 running');
    const first = states.find((s) => s.value[2] === 'running')!.at;
    const second = states.find((s) => s.value[3] === 'running')!.at;
    expect(second - first).toBeGreaterThanOrEqual(3000);
    const p = tb.pod('init-demo')!;
    expect(p.status?.conditions?.find((c) => c.type === 'Initialized')?.status).toBe('True');
    const logs = tb.nodes.logs('default', 'init-demo', 'first');
    expect('lines' in logs && logs.lines.map((l) => l.text)).toEqual(['first']);
    await tb.close();
  });

  it('reports the Initialized condition as ContainersNotInitialized while init containers run', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('init-wait', `  initContainers:\n  - {name: wait, image: busybox, command: ['sleep', '60']}\n  containers:\n  - {name: app, image: nginx}`));
    tb.cluster.clock.advance(10_000);
    const c = tb.pod('init-wait')!.status!.conditions!.find((x) => x.type === 'Initialized')!;
    expect(c).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [wait]' });
    const ready = tb.pod('init-wait')!.status!.conditions!.find((x) => x.type === 'Ready')!;
    expect(ready).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
    await tb.close();
  });

  it('nginx:1.999 fails with ErrImagePull, then ImagePullBackOff with a growing back-off', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('bad-tag', `  containers:\n  - {name: web, image: 'nginx:1.999'}`));
    const states = watchPod(tb, 'bad-tag', 120_000, (p) => p?.status?.containerStatuses?.[0]?.state?.waiting?.reason, 250);
    const reasons = states.map((s) => s.value).filter((r) => r !== undefined);
    expect(reasons.slice(0, 4)).toEqual(['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff', 'ErrImagePull']);
    const pulls = states.filter((s) => s.value === 'ErrImagePull').map((s) => s.at);
    const gaps = pulls.slice(1).map((t, i) => t - pulls[i]);
    // 10 s, then 20 s, then 40 s between attempts (plus the pull itself).
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    expect(gaps[0]).toBeGreaterThanOrEqual(10_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(20_000);
    expect(gaps[2]).toBeGreaterThanOrEqual(40_000);
    expect(gaps[1]).toBeGreaterThan(gaps[0]);
    const status = tb.pod('bad-tag')!.status!.containerStatuses![0];
    const events = tb.events('bad-tag');
    const failed = events.find((e) => e.reason === 'Failed' && e.message?.startsWith('Failed to pull image'))!;
    expect(failed.message).toBe(
      'Failed to pull image "nginx:1.999": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.999": failed to resolve reference "docker.io/library/nginx:1.999": docker.io/library/nginx:1.999: not found',
    );
    expect(events.some((e) => e.reason === 'BackOff' && e.message === 'Back-off pulling image "nginx:1.999"')).toBe(true);
    expect(events.some((e) => e.reason === 'Failed' && e.message === 'Error: ImagePullBackOff')).toBe(true);
    if (status.state?.waiting?.reason === 'ImagePullBackOff') {
      expect(status.state.waiting.message).toMatch(/^Back-off pulling image "nginx:1\.999": ErrImagePull: rpc error: code = NotFound/);
    }
    expect(tb.pod('bad-tag')!.status!.phase).toBe('Pending');
    await tb.close();
  });

  it('a misspelt image is denied and an unknown registry host does not resolve', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('typo', `  containers:\n  - {name: web, image: ngnix}`));
    tb.run(pod('private', `  containers:\n  - {name: app, image: 'my-registry.example.com/team/app:1.0'}`));
    tb.cluster.clock.advance(5000);
    const msg = (name: string) => tb.events(name).find((e) => e.message?.startsWith('Failed to pull'))?.message;
    expect(msg('typo')).toContain('pull access denied, repository does not exist or may require authorization');
    expect(msg('typo')).toContain('"docker.io/library/ngnix:latest"');
    expect(msg('private')).toContain('dial tcp: lookup my-registry.example.com: no such host');
    await tb.close();
  });

  it('a crashing container goes Error then CrashLoopBackOff, restarting after 10, 20, 40 s', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('crash', `  containers:\n  - {name: app, image: 'busybox:1.36', command: ['sh', '-c', 'sleep 5; exit 1']}`));
    tb.cluster.runUntil(() => tb.pod('crash')?.status?.containerStatuses?.[0]?.state?.running !== undefined, 30_000);
    const states = watchPod(tb, 'crash', 150_000, (p) => {
      const s = p?.status?.containerStatuses?.[0];
      return `${stateOf(s)} restarts=${s?.restartCount}`;
    }, 250);
    const starts = states.filter((s) => s.value.startsWith('running')).map((s) => s.at);
    // Started at 0; exits at 5 s and restarts at once; exits at 10 s, restarts after 10 s of back-off (20 s),
    // exits at 25 s, restarts after 20 s (45 s), exits at 50 s, restarts after 40 s (90 s).
    expect(starts).toEqual([0, 5000, 20_000, 45_000, 90_000]);
    expect(states.map((s) => s.value)).toContain('waiting:CrashLoopBackOff restarts=1');
    const p = tb.pod('crash')!;
    expect(p.status?.phase).toBe('Running');
    const cs = p.status!.containerStatuses![0];
    expect(cs.lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    const backoff = tb.events('crash').find((e) => e.reason === 'BackOff')!;
    expect(backoff.message).toBe(`Back-off restarting failed container app in pod crash_default(${p.metadata!.uid})`);
    expect(backoff.type).toBe('Warning');
    tb.cluster.clock.advance(1000);
    await tb.close();
  });

  it('shows the back-off period in the CrashLoopBackOff message', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('crash2', `  containers:\n  - {name: app, image: busybox, command: ['sh', '-c', 'exit 3']}`));
    tb.cluster.runUntil(() => tb.pod('crash2')?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 30_000);
    const p = tb.pod('crash2')!;
    expect(p.status!.containerStatuses![0].state!.waiting!.message).toBe(`back-off 10s restarting failed container=app pod=crash2_default(${p.metadata!.uid})`);
    await tb.close();
  });

  it('a busybox with no command exits 0 at once and crash-loops under restartPolicy Always', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('bb', `  containers:\n  - {name: bb, image: busybox}`));
    tb.cluster.runUntil(() => tb.pod('bb')?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff', 30_000);
    expect(tb.pod('bb')!.status!.containerStatuses![0].lastState!.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    await tb.close();
  });

  it('exit 0 with restartPolicy Never ends Succeeded with Completed', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('job', `  restartPolicy: Never\n  containers:\n  - {name: main, image: busybox, command: ['sh', '-c', 'echo done; sleep 2']}`));
    tb.cluster.runUntil(() => tb.pod('job')?.status?.phase === 'Succeeded', 30_000);
    const p = tb.pod('job')!;
    expect(p.status!.containerStatuses![0].state!.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(p.status!.conditions!.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(p.status!.conditions!.find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe('False');
    tb.cluster.clock.advance(60_000);
    expect(tb.pod('job')!.status!.containerStatuses![0].restartCount).toBe(0);
    await tb.close();
  });

  it('a non-zero exit with restartPolicy Never fails the pod', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('bad-job', `  restartPolicy: Never\n  containers:\n  - {name: main, image: 'docker.io/library/bash:5', command: ['bash'], args: ['-c', 'echo "Hello world!" && sleep 5 && exit 42']}`));
    tb.cluster.runUntil(() => tb.pod('bad-job')?.status?.phase === 'Failed', 30_000);
    expect(tb.pod('bad-job')!.status!.containerStatuses![0].state!.terminated).toMatchObject({ exitCode: 42, reason: 'Error' });
    await tb.close();
  });

  it('OOMKills a container whose memory use exceeds its limit (the docs memory-limit example)', async () => {
    const tb = await kubeletTestBed();
    tb.run(
      pod(
        'memory-demo-2',
        `  containers:
  - name: memory-demo-2-ctr
    image: polinux/stress
    resources: {requests: {memory: 50Mi}, limits: {memory: 100Mi}}
    command: [stress]
    args: [--vm, '1', --vm-bytes, 250M, --vm-hang, '1']`,
      ),
    );
    tb.run(
      pod(
        'memory-demo',
        `  containers:
  - name: memory-demo-ctr
    image: polinux/stress
    resources: {requests: {memory: 100Mi}, limits: {memory: 200Mi}}
    command: [stress]
    args: [--vm, '1', --vm-bytes, 150M, --vm-hang, '1']`,
      ),
    );
    tb.cluster.runUntil(() => (tb.pod('memory-demo-2')?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1, 60_000);
    const cs = tb.pod('memory-demo-2')!.status!.containerStatuses![0];
    expect(cs.lastState?.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    const ok = tb.pod('memory-demo')!.status!.containerStatuses![0];
    expect(ok.state?.running).toBeDefined();
    expect(ok.restartCount).toBe(0);
    await tb.close();
  });

  it('restarts the container of the docs exec-liveness example once /tmp/healthy is gone', async () => {
    const tb = await kubeletTestBed();
    tb.run(`{
      apiVersion: "v1", kind: "Pod", metadata: { labels: { test: "liveness" }, name: "liveness-exec" },
      spec: { containers: [{ name: "liveness", image: "registry.k8s.io/busybox:1.27.2",
        args: ["/bin/sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"],
        livenessProbe: { exec: { command: ["cat", "/tmp/healthy"] }, initialDelaySeconds: 5, periodSeconds: 5 } }] } }`);
    tb.cluster.runUntil(() => tb.pod('liveness-exec')?.status?.containerStatuses?.[0]?.state?.running !== undefined, 30_000);
    const startedAt = tb.cluster.clock.now();
    tb.cluster.clock.advance(30_000);
    expect(tb.pod('liveness-exec')!.status!.containerStatuses![0].restartCount).toBe(0);
    tb.cluster.runUntil(() => tb.pod('liveness-exec')!.status!.containerStatuses![0].restartCount === 1, 60_000);
    const restartedAfter = tb.cluster.clock.now() - startedAt;
    // Failures at 30, 35 and 40 s (failureThreshold 3), then the kill: sh ignores SIGTERM, so SIGKILL after 30 s.
    expect(restartedAfter).toBeGreaterThanOrEqual(40_000);
    expect(restartedAfter).toBeLessThanOrEqual(75_000);
    const events = tb.events('liveness-exec');
    expect(events.some((e) => e.reason === 'Unhealthy' && e.message === "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory")).toBe(true);
    expect(events.some((e) => e.reason === 'Killing' && e.message === 'Container liveness failed liveness probe, will be restarted')).toBe(true);
    expect(tb.pod('liveness-exec')!.status!.containerStatuses![0].lastState!.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    await tb.close();
  });

  it('becomes Ready only after the readiness probe initialDelaySeconds', async () => {
    const tb = await kubeletTestBed();
    tb.run(
      pod(
        'ready',
        `  containers:
  - name: web
    image: nginx
    ports: [{containerPort: 80}]
    readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 15, periodSeconds: 5}`,
      ),
    );
    tb.cluster.runUntil(() => tb.pod('ready')?.status?.containerStatuses?.[0]?.state?.running !== undefined, 30_000);
    const running = tb.cluster.clock.now();
    const readyAt = watchPod(tb, 'ready', 30_000, (p) => p?.status?.conditions?.find((c) => c.type === 'Ready')?.status, 250).find((s) => s.value === 'True')!.at;
    expect(readyAt).toBeGreaterThanOrEqual(15_000 - (tb.cluster.clock.now() - running - 30_250 + 250));
    expect(readyAt).toBeLessThanOrEqual(16_000);
    expect(readyAt).toBeGreaterThanOrEqual(14_000);
    await tb.close();
  });

  it('a readiness probe on a port nothing serves keeps the pod unready, with the dial error', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('unready', `  containers:\n  - name: web\n    image: nginx\n    readinessProbe: {tcpSocket: {port: 8080}, periodSeconds: 2}`));
    tb.cluster.clock.advance(20_000);
    const p = tb.pod('unready')!;
    expect(p.status!.containerStatuses![0].ready).toBe(false);
    expect(p.status!.phase).toBe('Running');
    const unhealthy = tb.events('unready').find((e) => e.reason === 'Unhealthy')!;
    expect(unhealthy.message).toBe(`Readiness probe failed: dial tcp ${p.status!.podIP}:8080: connect: connection refused`);
    await tb.close();
  });
});

describe('sidecars', () => {
  it('runs the docs sidecar example: the restartable init container keeps running beside the app', async () => {
    const tb = await kubeletTestBed();
    tb.run(
      pod(
        'sidecar',
        `  containers:
  - name: myapp
    image: alpine:latest
    command: ['sh', '-c', 'while true; do echo "logging" >> /opt/logs.txt; sleep 1; done']
  initContainers:
  - name: logshipper
    image: alpine:latest
    restartPolicy: Always
    command: ['sh', '-c', 'tail -F /opt/logs.txt']`,
      ),
    );
    tb.cluster.runUntil(() => tb.pod('sidecar')?.status?.phase === 'Running', 30_000);
    tb.cluster.clock.advance(30_000);
    const p = tb.pod('sidecar')!;
    expect(p.status!.initContainerStatuses![0]).toMatchObject({ name: 'logshipper', ready: true, started: true, restartCount: 0 });
    expect(p.status!.initContainerStatuses![0].state?.running).toBeDefined();
    expect(p.status!.containerStatuses![0]).toMatchObject({ name: 'myapp', ready: true, restartCount: 0 });
    expect(p.status!.conditions!.find((c) => c.type === 'Initialized')?.status).toBe('True');
    await tb.close();
  });
});

describe('termination', () => {
  it('honours terminationGracePeriodSeconds for a process that ignores SIGTERM, then the kubelet deletes the pod', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('sleeper', `  terminationGracePeriodSeconds: 20\n  containers:\n  - {name: s, image: busybox, command: ['sleep', '3600']}`));
    tb.cluster.runUntil(() => tb.pod('sleeper')?.status?.phase === 'Running', 30_000);
    const start = tb.cluster.clock.now();
    tb.cluster.client.pods.delete('sleeper', { namespace: 'default' });
    expect(tb.pod('sleeper')?.metadata?.deletionTimestamp).toBeTruthy();
    tb.cluster.clock.advance(19_000);
    expect(tb.pod('sleeper')).toBeDefined();
    tb.cluster.runUntil(() => tb.pod('sleeper') === undefined, 5000);
    const gone = tb.cluster.clock.now() - start;
    expect(gone).toBeGreaterThanOrEqual(20_000);
    expect(gone).toBeLessThan(21_000);
    expect(tb.events('sleeper').some((e) => e.reason === 'Killing' && e.message === 'Stopping container s')).toBe(true);
    await tb.close();
  });

  it('nginx shuts down on SIGTERM at once; preStop runs first', async () => {
    const tb = await kubeletTestBed();
    tb.run(pod('web', `  containers:\n  - name: web\n    image: nginx\n    lifecycle: {preStop: {exec: {command: ['sh', '-c', 'sleep 5']}}}`));
    tb.cluster.runUntil(() => tb.pod('web')?.status?.phase === 'Running', 30_000);
    const start = tb.cluster.clock.now();
    tb.cluster.client.pods.delete('web', { namespace: 'default' });
    tb.cluster.runUntil(() => tb.pod('web') === undefined, 40_000);
    const gone = tb.cluster.clock.now() - start;
    expect(gone).toBeGreaterThanOrEqual(5000);
    expect(gone).toBeLessThan(6000);
    await tb.close();
  });
});
