// Scenario: Jobs of the Kubernetes docs on a default 3-node cluster. The job controller creates the pods,
// kube-scheduler binds them, the kubelets run them on virtual time (`perl … bpi(2000)` runs 1 s and exits 0,
// `sh -c "exit 1"` fails), and the job controller counts them through the job-tracking finalizer.
import type { Job } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, condition, eventsFor, RevisionMonitor } from './harness';

const piJob = `
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
  backoffLimit: 4
`;

function jobYaml(name: string, spec: string, podSpec: string): string {
  return `
apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:
${spec}
  template:
    spec:
${podSpec}
`;
}

describe('scenario: Jobs', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const job = (name: string) => tc.get('job', 'default', name) as Job | undefined;
  const podsOfJob = (name: string) => tc.client.pods.list({ namespace: 'default', labelSelector: `batch.kubernetes.io/job-name=${name}` }).items as Pod[];
  const finished = (name: string) =>
    (job(name)?.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');

  it("runs the docs' pi Job to completion", () => {
    tc.apply(piJob);
    const created = tc.clock.now();
    tc.runUntil(() => finished('pi'), 120_000, 'pi complete');
    const j = job('pi')!;
    expect(condition(j.status?.conditions, 'Complete')).toMatchObject({ status: 'True', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
    expect(condition(j.status?.conditions, 'SuccessCriteriaMet')).toMatchObject({ status: 'True', reason: 'CompletionsReached' });
    expect(j.status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect(j.status?.active).toBeUndefined();
    expect(j.status?.failed).toBeUndefined();
    expect(j.status?.startTime).toBeDefined();
    expect(j.status?.completionTime).toBeDefined();
    expect(Date.parse(j.status!.completionTime!)).toBeGreaterThan(Date.parse(j.status!.startTime!));
    // Pull of perl (~350 MB at 40 MB/s) plus 1 s of running: well under a minute of virtual time.
    expect(tc.clock.now() - created).toBeLessThan(60_000);

    const pods = podsOfJob('pi');
    expect(pods).toHaveLength(1);
    const [pod] = pods;
    expect(pod.metadata?.name).toMatch(/^pi-[a-z0-9]{5}$/);
    expect(pod.status?.phase).toBe('Succeeded');
    // Counted: the tracking finalizer is gone, the pod stays (Completed) for its logs.
    expect(pod.metadata?.finalizers ?? []).not.toContain('batch.kubernetes.io/job-tracking');
    expect(pod.metadata?.ownerReferences).toEqual([
      { apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: j.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(pod.metadata?.labels).toMatchObject({ 'batch.kubernetes.io/job-name': 'pi', 'job-name': 'pi', 'batch.kubernetes.io/controller-uid': j.metadata!.uid });

    const events = eventsFor(tc, 'Job', 'pi').map((e) => `${e.type} ${e.reason} ${e.message}`);
    expect(events).toEqual([`Normal SuccessfulCreate Created pod: ${pod.metadata!.name}`, 'Normal Completed Job completed']);
    expect(eventsFor(tc, 'Job', 'pi')[0].source?.component).toBe('job-controller');
  });

  it('runs completions 5 with parallelism 2: never more than 2 pods at once', () => {
    tc.apply(
      jobYaml(
        'batch',
        '  completions: 5\n  parallelism: 2',
        '      restartPolicy: Never\n      containers:\n      - name: work\n        image: busybox:1.36\n        command: ["sh", "-c", "sleep 5"]',
      ),
    );
    let maxRunning = 0;
    let maxActive = 0;
    tc.runUntil(
      () => {
        const running = podsOfJob('batch').filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;
        maxRunning = Math.max(maxRunning, running);
        maxActive = Math.max(maxActive, job('batch')?.status?.active ?? 0);
        return finished('batch');
      },
      300_000,
      'batch complete',
    );
    expect(maxRunning).toBe(2);
    expect(maxActive).toBe(2);
    const j = job('batch')!;
    expect(condition(j.status?.conditions, 'Complete')?.status).toBe('True');
    expect(j.status?.succeeded).toBe(5);
    expect(podsOfJob('batch').filter((p) => p.status?.phase === 'Succeeded')).toHaveLength(5);
    expect(eventsFor(tc, 'Job', 'batch').filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(5);
  });

  it('backs off 10 s, 20 s, 40 s … between failing pods and fails with BackoffLimitExceeded', () => {
    tc.apply(
      jobYaml(
        'fail',
        '  backoffLimit: 3',
        '      restartPolicy: Never\n      containers:\n      - name: fail\n        image: busybox:1.36\n        command: ["sh", "-c", "exit 1"]',
      ),
    );
    tc.runUntil(() => finished('fail'), 600_000, 'fail finished');
    const j = job('fail')!;
    expect(condition(j.status?.conditions, 'Failed')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    expect(condition(j.status?.conditions, 'FailureTarget')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded' });
    expect(condition(j.status?.conditions, 'Complete')).toBeUndefined();
    expect(j.status?.failed).toBe(4);
    expect(j.status?.completionTime).toBeUndefined();
    const pods = podsOfJob('fail').sort((a, b) => Date.parse(a.metadata!.creationTimestamp!) - Date.parse(b.metadata!.creationTimestamp!));
    expect(pods).toHaveLength(4);
    for (const p of pods) expect(p.status?.phase).toBe('Failed');
    // Each replacement waits for the back-off after the previous failure: 10 s, 20 s, 40 s (plus the
    // 1 s batching of pod events and the pod's own start-up).
    const gaps = pods.slice(1).map((p, i) => {
      const finishedAt = Date.parse(pods[i].status!.containerStatuses![0].state!.terminated!.finishedAt!);
      return Date.parse(p.metadata!.creationTimestamp!) - finishedAt;
    });
    expect(gaps[0]).toBeGreaterThanOrEqual(10_000);
    expect(gaps[0]).toBeLessThan(13_000);
    expect(gaps[1]).toBeGreaterThanOrEqual(20_000);
    expect(gaps[1]).toBeLessThan(23_000);
    expect(gaps[2]).toBeGreaterThanOrEqual(40_000);
    expect(gaps[2]).toBeLessThan(43_000);
    const events = eventsFor(tc, 'Job', 'fail');
    expect(events.at(-1)).toMatchObject({ type: 'Warning', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
  });

  it('fails a Job active longer than activeDeadlineSeconds with DeadlineExceeded, deleting its pods', () => {
    tc.apply(
      jobYaml(
        'deadline',
        '  activeDeadlineSeconds: 20',
        '      restartPolicy: Never\n      containers:\n      - name: sleep\n        image: busybox:1.36\n        command: ["sh", "-c", "sleep 3600"]',
      ),
    );
    tc.runUntil(() => (job('deadline')?.status?.active ?? 0) === 1, 60_000, 'deadline active');
    const start = Date.parse(job('deadline')!.status!.startTime!);
    tc.runUntil(() => finished('deadline'), 180_000, 'deadline finished');
    const j = job('deadline')!;
    expect(condition(j.status?.conditions, 'Failed')).toMatchObject({ status: 'True', reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    const target = condition(j.status?.conditions, 'FailureTarget')!;
    expect(Date.parse(target.lastTransitionTime!) - start).toBeGreaterThanOrEqual(20_000);
    expect(Date.parse(target.lastTransitionTime!) - start).toBeLessThan(22_000);
    // The pod was deleted (sleep ignores SIGTERM: it goes after the 30 s grace period), then counted as failed.
    expect(j.status?.failed).toBe(1);
    expect(j.status?.active).toBeUndefined();
    const events = eventsFor(tc, 'Job', 'deadline').map((e) => `${e.reason} ${e.message}`);
    expect(events).toContain('DeadlineExceeded Job was active longer than specified deadline');
    expect(events.some((e) => e.startsWith('SuccessfulDelete Deleted pod: deadline-'))).toBe(true);
    tc.runUntil(() => podsOfJob('deadline').length === 0, 60_000, 'pod gone');
  });

  it('gives an Indexed Job indexes 0..4: annotation, label, JOB_COMPLETION_INDEX, hostname, completedIndexes "0-4"', () => {
    tc.apply(
      jobYaml(
        'indexed',
        '  completions: 5\n  parallelism: 3\n  completionMode: Indexed',
        '      restartPolicy: Never\n      containers:\n      - name: work\n        image: busybox:1.36\n        command: ["sh", "-c", "echo index $JOB_COMPLETION_INDEX; sleep 2"]',
      ),
    );
    tc.runUntil(() => finished('indexed'), 300_000, 'indexed complete');
    const j = job('indexed')!;
    expect(condition(j.status?.conditions, 'Complete')?.status).toBe('True');
    expect(j.status).toMatchObject({ succeeded: 5, completedIndexes: '0-4' });
    const pods = podsOfJob('indexed');
    expect(pods).toHaveLength(5);
    const indexes = pods.map((p) => Number(p.metadata!.annotations!['batch.kubernetes.io/job-completion-index'])).sort();
    expect(indexes).toEqual([0, 1, 2, 3, 4]);
    for (const p of pods) {
      const ix = p.metadata!.annotations!['batch.kubernetes.io/job-completion-index'];
      expect(p.metadata!.labels!['batch.kubernetes.io/job-completion-index']).toBe(ix);
      expect(p.metadata!.name).toMatch(new RegExp(`^indexed-${ix}-[a-z0-9]{5}$`));
      expect(p.spec!.hostname).toBe(`indexed-${ix}`);
      expect(p.spec!.containers[0].env).toEqual([
        { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']" } } },
      ]);
      const logs = tc.cluster.nodes.logs('default', p.metadata!.name!);
      expect('lines' in logs ? logs.lines.map((l) => l.text) : logs).toEqual([`index ${ix}`]);
    }
  });

  it("fails the docs' pod-failure-policy example at the first exit code 42 (FailJob)", () => {
    tc.apply(`
apiVersion: batch/v1
kind: Job
metadata:
  name: job-pod-failure-policy-example
spec:
  completions: 12
  parallelism: 3
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: docker.io/library/bash:5
        command: ["bash"]
        args:
        - -c
        - echo "Hello world!" && sleep 5 && exit 42
  backoffLimit: 6
  podFailurePolicy:
    rules:
    - action: FailJob
      onExitCodes:
        containerName: main
        operator: In
        values: [42]
    - action: Ignore
      onPodConditions:
      - type: DisruptionTarget
`);
    const name = 'job-pod-failure-policy-example';
    tc.runUntil(() => finished(name), 300_000, 'FailJob');
    const j = job(name)!;
    const failed = condition(j.status?.conditions, 'Failed')!;
    expect(failed).toMatchObject({ status: 'True', reason: 'PodFailurePolicy' });
    expect(failed.message).toMatch(new RegExp(`^Container main for pod default/${name}-[a-z0-9]{5} failed with exit code 42 matching FailJob rule at index 0$`));
    expect(condition(j.status?.conditions, 'FailureTarget')).toMatchObject({ status: 'True', reason: 'PodFailurePolicy', message: failed.message });
    // The first 3 pods fail together; no replacement was ever created.
    expect(podsOfJob(name)).toHaveLength(3);
    expect(j.status?.failed).toBe(3);
    expect(j.status?.succeeded).toBeUndefined();
    const last = eventsFor(tc, 'Job', name).at(-1)!;
    expect(last).toMatchObject({ type: 'Warning', reason: 'PodFailurePolicy', message: failed.message });
  });

  it('deletes a finished Job (and through the garbage collector its pods) ttlSecondsAfterFinished later', () => {
    tc.apply(
      jobYaml(
        'ttl',
        '  ttlSecondsAfterFinished: 100',
        '      restartPolicy: Never\n      containers:\n      - name: pi\n        image: perl:5.34.0\n        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]',
      ),
    );
    tc.runUntil(() => finished('ttl'), 120_000, 'ttl complete');
    const completedAt = Date.parse(condition(job('ttl')!.status?.conditions, 'Complete')!.lastTransitionTime!);
    expect(podsOfJob('ttl')).toHaveLength(1);
    tc.runUntil(() => job('ttl') === undefined, 300_000, 'ttl job deleted');
    const deletedAfter = tc.clock.now() - completedAt;
    expect(deletedAfter).toBeGreaterThanOrEqual(100_000);
    expect(deletedAfter).toBeLessThan(105_000);
    expect(podsOfJob('ttl')).toHaveLength(0);
  });

  it('creates no pods while suspended, deletes them on suspend and creates them on resume', () => {
    tc.apply(
      jobYaml(
        'susp',
        '  suspend: true\n  completions: 2\n  parallelism: 2',
        '      restartPolicy: Never\n      containers:\n      - name: sleep\n        image: busybox:1.36\n        command: ["sh", "-c", "sleep 30"]',
      ),
    );
    tc.advance(30_000);
    let j = job('susp')!;
    expect(podsOfJob('susp')).toHaveLength(0);
    expect(condition(j.status?.conditions, 'Suspended')).toMatchObject({ status: 'True', reason: 'JobSuspended', message: 'Job suspended' });
    expect(j.status?.startTime).toBeUndefined();

    tc.client.jobs.patch('susp', 'application/merge-patch+json', { spec: { suspend: false } }, { namespace: 'default' });
    tc.runUntil(() => (job('susp')?.status?.active ?? 0) === 2, 60_000, 'resumed');
    j = job('susp')!;
    expect(condition(j.status?.conditions, 'Suspended')).toMatchObject({ status: 'False', reason: 'JobResumed', message: 'Job resumed' });
    expect(j.status?.startTime).toBeDefined();
    expect(podsOfJob('susp')).toHaveLength(2);

    // Suspending a running Job deletes its pods; they are not failures.
    tc.client.jobs.patch('susp', 'application/merge-patch+json', { spec: { suspend: true } }, { namespace: 'default' });
    tc.runUntil(() => podsOfJob('susp').length === 0, 120_000, 'pods deleted on suspend');
    tc.advance(5_000);
    j = job('susp')!;
    expect(condition(j.status?.conditions, 'Suspended')).toMatchObject({ status: 'True', reason: 'JobSuspended' });
    expect(j.status?.active).toBeUndefined();
    expect(j.status?.failed).toBeUndefined();
    const reasons = eventsFor(tc, 'Job', 'susp').map((e) => e.reason);
    // The recorder folds the second "Job suspended" into the first event: count 2.
    expect(eventsFor(tc, 'Job', 'susp').find((e) => e.reason === 'Suspended')).toMatchObject({ message: 'Job suspended', count: 2 });
    expect(reasons).toContain('Resumed');
    expect(reasons.filter((r) => r === 'SuccessfulDelete')).toHaveLength(2);

    tc.client.jobs.patch('susp', 'application/merge-patch+json', { spec: { suspend: false } }, { namespace: 'default' });
    tc.runUntil(() => finished('susp'), 300_000, 'susp complete');
    expect(job('susp')!.status?.succeeded).toBe(2);
  });

  it('with restartPolicy OnFailure counts container restarts against backoffLimit', () => {
    tc.apply(
      jobYaml(
        'onfail',
        '  backoffLimit: 2',
        '      restartPolicy: OnFailure\n      containers:\n      - name: fail\n        image: busybox:1.36\n        command: ["sh", "-c", "exit 1"]',
      ),
    );
    tc.runUntil(() => finished('onfail'), 300_000, 'onfail finished');
    const j = job('onfail')!;
    expect(condition(j.status?.conditions, 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
    // One pod, restarted in place by the kubelet until the restarts reached the limit; then deleted and counted.
    expect(eventsFor(tc, 'Job', 'onfail').filter((e) => e.reason === 'SuccessfulCreate')).toHaveLength(1);
    expect(j.status?.failed).toBe(1);
  });

  it('does not count failures an Ignore rule matches against backoffLimit', () => {
    tc.apply(`
apiVersion: batch/v1
kind: Job
metadata:
  name: ignore
spec:
  backoffLimit: 0
  activeDeadlineSeconds: 60
  podFailurePolicy:
    rules:
    - action: Ignore
      onExitCodes:
        operator: In
        values: [3]
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "exit 3"]
`);
    tc.runUntil(() => finished('ignore'), 300_000, 'ignore finished');
    const j = job('ignore')!;
    // backoffLimit 0 would have failed the Job at the first counted failure: the deadline ended it instead.
    expect(condition(j.status?.conditions, 'Failed')).toMatchObject({ reason: 'DeadlineExceeded' });
    const failedPods = podsOfJob('ignore').filter((p) => p.status?.phase === 'Failed');
    expect(failedPods.length).toBeGreaterThanOrEqual(3);
    expect(j.status?.failed).toBeUndefined();
  });

  it('fails an index at once on a FailIndex rule and retries the others per index (backoffLimitPerIndex)', () => {
    tc.apply(`
apiVersion: batch/v1
kind: Job
metadata:
  name: per-index
spec:
  completions: 4
  parallelism: 4
  completionMode: Indexed
  backoffLimitPerIndex: 1
  podFailurePolicy:
    rules:
    - action: FailIndex
      onExitCodes:
        operator: In
        values: [7]
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox:1.36
        command: ["sh", "-c", "if [ \\"$JOB_COMPLETION_INDEX\\" = 1 ]; then exit 7; fi; if [ \\"$JOB_COMPLETION_INDEX\\" = 2 ]; then exit 1; fi; sleep 1"]
`);
    tc.runUntil(() => finished('per-index'), 300_000, 'per-index finished');
    const j = job('per-index')!;
    expect(condition(j.status?.conditions, 'Failed')).toMatchObject({ status: 'True', reason: 'FailedIndexes', message: 'Job has failed indexes' });
    expect(j.status).toMatchObject({ completedIndexes: '0,3', failedIndexes: '1,2', succeeded: 2 });
    const byIndex = (ix: number) => podsOfJob('per-index').filter((p) => p.metadata!.labels!['batch.kubernetes.io/job-completion-index'] === String(ix));
    // Index 1 failed on the FailIndex rule: never retried. Index 2 failed twice: the first failure and its retry.
    expect(byIndex(1)).toHaveLength(1);
    expect(byIndex(2)).toHaveLength(2);
    expect(byIndex(2).map((p) => p.metadata!.annotations!['batch.kubernetes.io/job-index-failure-count']).sort()).toEqual(['0', '1']);
    expect(j.status?.failed).toBe(3);
  });

  it('counts every pod exactly once across controller-manager restarts (job-tracking finalizer)', () => {
    tc.apply(
      jobYaml(
        'restarts',
        '  completions: 10\n  parallelism: 5',
        '      restartPolicy: Never\n      containers:\n      - name: work\n        image: busybox:1.36\n        command: ["sh", "-c", "sleep 3"]',
      ),
    );
    // At every store revision, succeeded only grows and never passes completions.
    let lastSucceeded = 0;
    const monitor = new RevisionMonitor(tc, '/registry/batch/jobs/default/restarts', (objects) => {
      const j = [...objects.values()][0] as Job | undefined;
      const succeeded = j?.status?.succeeded ?? 0;
      expect(succeeded).toBeGreaterThanOrEqual(lastSucceeded);
      expect(succeeded).toBeLessThanOrEqual(10);
      lastSucceeded = succeeded;
    });
    for (let i = 0; i < 6; i++) {
      tc.advance(2_500);
      tc.cluster.controllerManager.restart();
    }
    tc.runUntil(() => finished('restarts'), 300_000, 'restarts complete');
    monitor.stop();
    expect(monitor.revisions).toBeGreaterThan(3);
    expect(lastSucceeded).toBe(10);
    const j = job('restarts')!;
    expect(condition(j.status?.conditions, 'Complete')?.status).toBe('True');
    expect(j.status?.succeeded).toBe(10);
    expect(j.status?.uncountedTerminatedPods).toEqual({});
    const pods = podsOfJob('restarts');
    expect(pods.filter((p) => p.status?.phase === 'Succeeded')).toHaveLength(10);
    for (const p of pods) expect(p.metadata?.finalizers ?? []).not.toContain('batch.kubernetes.io/job-tracking');
  });
});

