// Scenario: containers that fail. A container that exits 1 every 5 s goes Error → CrashLoopBackOff with the
// kubelet's back-off (first restart at once, then 10 s, 20 s, 40 s … after each exit, capped at 5 min); an image
// tag that does not exist goes ErrImagePull → ImagePullBackOff; a restartPolicy Never pod that exits 0 Succeeds.
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, condition, eventsFor, RevisionMonitor } from './harness';

function pod(name: string, container: object, spec: object = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'app', ...container }], ...spec } };
}

describe('scenario: failing containers', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const get = (name: string) => tc.get('pod', 'default', name) as Pod;
  const status = (name: string) => get(name).status!.containerStatuses![0];
  /** kubectl logs [--previous] <pod>. */
  const logLines = (name: string, options: { previous?: boolean } = {}) => {
    const out = tc.cluster.nodes.logs('default', name, 'app', options);
    if ('error' in out) throw new Error(out.error);
    return out.lines.map((l) => l.text);
  };

  it('sh -c "sleep 5; exit 1": Error, then CrashLoopBackOff with a doubling back-off capped at 5 min', () => {
    // Times (virtual ms) at which the container exited and started, seen at every store revision.
    const exits: number[] = [];
    const starts: number[] = [];
    const waitingReasons = new Set<string>();
    const terminated: string[] = [];
    let lastStarted = '';
    let lastFinished = '';
    const monitor = new RevisionMonitor(tc, '/registry/core/pods/default/crash', (objects) => {
      const cs = (objects.get('/registry/core/pods/default/crash') as Pod | undefined)?.status?.containerStatuses?.[0];
      if (!cs) return;
      if (cs.state?.running && cs.state.running.startedAt !== lastStarted) {
        lastStarted = cs.state.running.startedAt!;
        starts.push(tc.clock.now());
      }
      const finished = cs.state?.terminated ?? cs.lastState?.terminated;
      if (finished?.finishedAt && finished.containerID !== lastFinished) {
        lastFinished = finished.containerID!;
        exits.push(tc.clock.now());
        terminated.push(`${finished.reason} ${finished.exitCode}`);
      }
      if (cs.state?.waiting?.reason) waitingReasons.add(cs.state.waiting.reason);
    });
    tc.apply(pod('crash', { image: 'busybox:1.36', command: ['sh', '-c', 'echo starting; sleep 5; exit 1'] }));

    tc.runUntil(() => (status('crash')?.restartCount ?? 0) === 1, 30_000, 'first restart');
    expect(terminated).toEqual(['Error 1']);
    expect(status('crash').lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    // A restartable container: the pod stays Running while the kubelet restarts it.
    expect(get('crash').status?.phase).toBe('Running');

    tc.runUntil(() => status('crash')?.state?.waiting?.reason === 'CrashLoopBackOff', 60_000, 'CrashLoopBackOff');
    const uid = get('crash').metadata?.uid;
    expect(status('crash').state?.waiting?.message).toBe(`back-off 10s restarting failed container=app pod=crash_default(${uid})`);
    expect(status('crash').lastState?.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(condition(get('crash').status?.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
      message: 'containers with unready status: [app]',
    });

    tc.runUntil(() => (status('crash')?.restartCount ?? 0) >= 7, 30 * 60_000, '7 restarts');
    monitor.stop();
    expect(waitingReasons).toEqual(new Set(['ContainerCreating', 'CrashLoopBackOff']));
    expect(terminated).toEqual(Array(7).fill('Error 1'));
    // Each run lasts the script's 5 s.
    for (let i = 0; i < exits.length; i++) expect(exits[i] - starts[i]).toBe(5_000);
    // From each exit to the next start: at once, then 10 s doubling, capped at 5 min (not 320 s).
    const gaps = starts.slice(1).map((t, i) => t - exits[i]);
    expect(gaps).toEqual([0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000]);
    expect(status('crash').restartCount).toBe(7);

    const backOff = eventsFor(tc, 'Pod', 'crash').filter((e) => e.reason === 'BackOff');
    expect(backOff).toHaveLength(1);
    expect(backOff[0]).toMatchObject({ type: 'Warning', message: `Back-off restarting failed container app in pod crash_default(${uid})` });
    expect(backOff[0].count).toBeGreaterThanOrEqual(6);
    expect(eventsFor(tc, 'Pod', 'crash').find((e) => e.reason === 'Started')?.count).toBe(8);
    // kubectl logs --previous: the last run's output.
    expect(logLines('crash', { previous: true })).toEqual(['starting']);
  });

  it('nginx:1.999: ErrImagePull, then ImagePullBackOff, with the registry error', () => {
    tc.apply(pod('bad', { image: 'nginx:1.999' }));
    const notFound =
      'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.999": ' +
      'failed to resolve reference "docker.io/library/nginx:1.999": docker.io/library/nginx:1.999: not found';
    tc.runUntil(() => status('bad')?.state?.waiting?.reason === 'ErrImagePull', 30_000, 'ErrImagePull');
    expect(status('bad').state?.waiting?.message).toBe(notFound);
    tc.runUntil(() => status('bad')?.state?.waiting?.reason === 'ImagePullBackOff', 30_000, 'ImagePullBackOff');
    expect(status('bad').state?.waiting?.message).toBe(`Back-off pulling image "nginx:1.999": ErrImagePull: ${notFound}`);
    expect(get('bad').status?.phase).toBe('Pending');
    expect(status('bad')).toMatchObject({ ready: false, restartCount: 0, started: false });

    // The kubelet keeps retrying on its back-off (10 s, 20 s, 40 s, 80 s…): 5 pulls in the first 5 minutes.
    tc.advance(5 * 60_000);
    const events = eventsFor(tc, 'Pod', 'bad');
    const byMessage = (m: string) => events.find((e) => e.message === m);
    expect(byMessage(`Failed to pull image "nginx:1.999": ${notFound}`)).toMatchObject({ type: 'Warning', reason: 'Failed' });
    expect(byMessage('Error: ErrImagePull')).toMatchObject({ type: 'Warning', reason: 'Failed' });
    expect(byMessage('Back-off pulling image "nginx:1.999"')).toMatchObject({ type: 'Normal', reason: 'BackOff' });
    expect(byMessage('Error: ImagePullBackOff')).toMatchObject({ type: 'Warning', reason: 'Failed' });
    const pulls = byMessage('Pulling image "nginx:1.999"')!;
    expect(pulls.count).toBe(5);
    expect(events.some((e) => e.reason === 'Started' || e.reason === 'Created')).toBe(false);
    expect(get('bad').status?.phase).toBe('Pending');

    // Fixing the image (kubectl set image) lets it run: the back-off does not outlive the image it was for.
    tc.client.pods.patch('bad', 'application/strategic-merge-patch+json', { spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } }, { namespace: 'default' });
    tc.runUntil(() => get('bad').status?.phase === 'Running' && status('bad').ready === true, 60_000, 'fixed image running');
    expect(status('bad').image).toBe('docker.io/library/nginx:1.27');
  });

  it('restartPolicy Never: exit 0 ends Succeeded, exit 1 ends Failed, and neither restarts', () => {
    tc.apply(pod('once', { image: 'busybox:1.36', command: ['sh', '-c', 'echo done; exit 0'] }, { restartPolicy: 'Never' }));
    tc.apply(pod('fails', { image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2; exit 3'] }, { restartPolicy: 'Never' }));
    tc.runUntil(() => get('once').status?.phase === 'Succeeded' && get('fails').status?.phase === 'Failed', 60_000, 'both terminated');
    tc.advance(60_000);

    expect(get('once').status?.phase).toBe('Succeeded');
    expect(status('once')).toMatchObject({ ready: false, restartCount: 0, started: false });
    expect(status('once').state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(condition(get('once').status?.conditions, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
    expect(logLines('once')).toEqual(['done']);

    expect(get('fails').status?.phase).toBe('Failed');
    expect(status('fails').state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(status('fails').restartCount).toBe(0);
    expect(eventsFor(tc, 'Pod', 'fails').filter((e) => e.reason === 'Started')).toHaveLength(1);
  });

  it('restartPolicy OnFailure: a failing container is restarted with back-off, a succeeding one is not', () => {
    tc.apply(pod('retry', { image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }, { restartPolicy: 'OnFailure' }));
    tc.runUntil(() => (status('retry')?.restartCount ?? 0) >= 2, 120_000, 'two restarts');
    expect(get('retry').status?.phase).toBe('Running');
    tc.runUntil(() => status('retry').state?.waiting?.reason === 'CrashLoopBackOff', 60_000, 'CrashLoopBackOff');
    tc.apply(pod('ok', { image: 'busybox:1.36', command: ['sh', '-c', 'exit 0'] }, { restartPolicy: 'OnFailure' }));
    tc.runUntil(() => get('ok').status?.phase === 'Succeeded', 60_000, 'ok succeeded');
    expect(status('ok').restartCount).toBe(0);
  });
});
