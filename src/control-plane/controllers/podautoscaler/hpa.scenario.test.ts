// Scenario: the docs' HPA walkthrough (php-apache, cpu request 200m, limit 500m; HPA 1–10 replicas at 50%) on
// a 3-node cluster on virtual time, with the simulated load in place of the load generator.
import type { HorizontalPodAutoscaler } from 'kubernetes-types/autoscaling/v2';
import type { Deployment } from 'kubernetes-types/apps/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../../testing/test-cluster';
import { bootCluster, condition, eventsFor, isPodReady, podsOf } from '../../scenarios/harness';
import { kubectl } from '../../../kubectl/cli/testing';

const phpApache = (resources = 'resources:\n          limits:\n            cpu: 500m\n          requests:\n            cpu: 200m') => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: php-apache
spec:
  selector:
    matchLabels:
      app.kubernetes.io/name: php-apache
  template:
    metadata:
      labels:
        app.kubernetes.io/name: php-apache
    spec:
      containers:
      - name: php-apache
        image: registry.k8s.io/hpa-example
        ports:
        - containerPort: 80
        ${resources}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: php-apache
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: php-apache
  minReplicas: 1
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`;

const minute = 60_000;

describe('scenario: HorizontalPodAutoscaler on simulated load', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(async () => {
    await tc.close();
  });

  const hpa = () => tc.client.horizontalPodAutoscalers.get('php-apache', { namespace: 'default' }) as HorizontalPodAutoscaler;
  const deployment = () => tc.client.deployments.get('php-apache', { namespace: 'default' }) as Deployment;
  const readyPods = () => podsOf(tc, 'default', 'app.kubernetes.io/name=php-apache').filter((p) => isPodReady(p) && !p.metadata?.deletionTimestamp).length;
  const setLoad = (cpuMillicores: number) => tc.cluster.loads.set({ namespace: 'default', kind: 'Deployment', name: 'php-apache', cpuMillicores });

  it('scales up to the formula, limited by the rate and by maxReplicas, and down only after the 5-minute stabilization', async () => {
    tc.apply(phpApache());
    tc.runUntil(() => readyPods() === 1 && hpa().status?.currentMetrics?.[0]?.resource?.current.averageUtilization !== undefined, 2 * minute, 'php-apache ready and measured');
    // Idle: 1–3m (a seeded draw) of a 200m request, in whole percent: 0 or 1.
    const idle = hpa().status!.currentMetrics![0]!.resource!.current.averageUtilization!;
    expect([0, 1]).toContain(idle);
    expect(condition(hpa().status?.conditions, 'ScalingActive')).toMatchObject({ status: 'True', reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)' });
    expect(condition(hpa().status?.conditions, 'ScalingLimited')).toMatchObject({ status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' });
    expect((await kubectl(tc.cluster, 'kubectl get hpa')).stdout).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE\nphp-apache\s+Deployment\/php-apache\s+cpu: [01]%\/50%\s+1\s+10\s+1\s+/);

    // 1000m of load on one pod: it burns its 500m limit, 250% of its request → wants ceil(5 × 1) = 5; the rate
    // without behavior allows max(2 × 1, 4) = 4.
    setLoad(1000);
    tc.runUntil(() => deployment().spec?.replicas !== 1, minute, 'the first rescale');
    expect(deployment().spec?.replicas).toBe(4);
    expect(hpa().status?.currentMetrics?.[0]?.resource?.current).toMatchObject({ averageUtilization: 250 });
    expect(condition(hpa().status?.conditions, 'ScalingLimited')).toMatchObject({ status: 'True', reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
    expect(condition(hpa().status?.conditions, 'AbleToScale')).toMatchObject({ status: 'True', reason: 'SucceededRescale', message: 'the HPA controller was able to update the target scale to 4' });
    expect(eventsFor(tc, 'HorizontalPodAutoscaler', 'php-apache').map((e) => [e.type, e.reason, e.message, e.source?.component])).toContainEqual([
      'Normal',
      'SuccessfulRescale',
      'New size: 4; reason: cpu resource utilization (percentage of request) above target',
      'horizontal-pod-autoscaler',
    ]);
    expect((await kubectl(tc.cluster, 'kubectl get hpa php-apache --no-headers')).stdout).toMatch(/^php-apache\s+Deployment\/php-apache\s+cpu: 250%\/50%\s+1\s+10\s+1\s+/);
    // status.currentReplicas is what the sync found; the next one reports the new count.
    tc.runUntil(() => hpa().status?.currentReplicas === 4, minute, 'currentReplicas 4');

    // Load spread over more pods keeps asking for more, until maxReplicas caps it.
    tc.runUntil(() => deployment().spec?.replicas === 10, 5 * minute, 'maxReplicas');
    tc.runUntil(() => readyPods() === 10 && hpa().status?.currentReplicas === 10 && condition(hpa().status?.conditions, 'ScalingLimited')?.reason === 'TooManyReplicas', 3 * minute, 'TooManyReplicas');
    expect(condition(hpa().status?.conditions, 'ScalingLimited')).toMatchObject({ status: 'True', message: 'the desired replica count is more than the maximum replica count' });
    expect(hpa().status).toMatchObject({ currentReplicas: 10, desiredReplicas: 10 });

    // Load gone: every pod idles at ~1%, the calculator wants 1, but the highest recommendation of the last
    // 5 minutes holds the count.
    setLoad(0);
    const dropped = tc.cluster.clock.now();
    tc.runUntil(() => hpa().status?.currentMetrics?.[0]?.resource?.current.averageUtilization === 1, minute, 'idle metrics');
    expect(condition(hpa().status?.conditions, 'AbleToScale')).toMatchObject({ reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' });
    tc.runUntil(() => deployment().spec?.replicas !== 10, 7 * minute, 'the scale-down');
    const waited = tc.cluster.clock.now() - dropped;
    expect(waited).toBeGreaterThanOrEqual(4.5 * minute);
    expect(waited).toBeLessThanOrEqual(5.5 * minute + 30_000);
    expect(deployment().spec?.replicas).toBe(1);
    expect(eventsFor(tc, 'HorizontalPodAutoscaler', 'php-apache').map((e) => e.message)).toContain('New size: 1; reason: All metrics below target');
  });

  it('reports a missing cpu request as the real controller does', async () => {
    // No resources at all (with a cpu limit alone, the request would default to it).
    tc.apply(phpApache('resources: {}'));
    // Until the pod has run a whole metrics window there is nothing to compute from.
    tc.runUntil(() => condition(hpa().status?.conditions, 'ScalingActive')?.reason === 'FailedGetResourceMetric', minute, 'FailedGetResourceMetric');
    expect(condition(hpa().status?.conditions, 'ScalingActive')?.message).toBe(
      'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    );
    tc.runUntil(() => condition(hpa().status?.conditions, 'ScalingActive')?.message?.includes('missing request') ?? false, 2 * minute, 'missing request');
    const pod = podsOf(tc, 'default', 'app.kubernetes.io/name=php-apache')[0].metadata!.name!;
    const inner = `failed to get cpu utilization: missing request for cpu in container php-apache of Pod ${pod}`;
    expect(condition(hpa().status?.conditions, 'ScalingActive')).toMatchObject({ status: 'False', message: `the HPA was unable to compute the replica count: ${inner}` });
    expect(condition(hpa().status?.conditions, 'AbleToScale')).toMatchObject({ status: 'True', reason: 'SucceededGetScale' });
    const events = eventsFor(tc, 'HorizontalPodAutoscaler', 'php-apache').map((e) => [e.type, e.reason, e.message]);
    expect(events).toContainEqual(['Warning', 'FailedGetResourceMetric', inner]);
    expect(events).toContainEqual(['Warning', 'FailedComputeMetricsReplicas', `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${inner}`]);
    expect((await kubectl(tc.cluster, 'kubectl get hpa php-apache --no-headers')).stdout).toMatch(/^php-apache\s+Deployment\/php-apache\s+cpu: <unknown>\/50%\s+1\s+10\s+1\s+/);
    // Load changes nothing: the HPA cannot compute a count.
    setLoad(2000);
    tc.cluster.advance(minute);
    expect(deployment().spec?.replicas).toBe(1);
  });

  it('a missing target: FailedGetScale', async () => {
    tc.apply(phpApache().split('---')[1]);
    tc.runUntil(() => condition(hpa().status?.conditions, 'AbleToScale') !== undefined, minute, 'a status');
    expect(condition(hpa().status?.conditions, 'AbleToScale')).toMatchObject({
      status: 'False',
      reason: 'FailedGetScale',
      message: `the HPA controller was unable to get the target's current scale: deployments.apps "php-apache" not found`,
    });
  });
});
