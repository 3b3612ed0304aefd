// kubectl describe quota / limits on a whole cluster: the quota controller's usage in describe.go's
// "Resource Used Hard" table (Used printed in Hard's format when they differ), the LimitRange table with the
// API server's defaults, and both inside describe namespace.
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { createAll, kubectl, observedCluster } from './test-cluster';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('kubectl describe quota and limits', () => {
  it('describes a ResourceQuota with the usage the quota controller computed', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {pods: "4", requests.cpu: "1", requests.memory: 1Gi, limits.memory: 2G, services: "2"}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: best-effort}
spec:
  hard: {pods: "2"}
  scopes: [BestEffort]
`,
    );
    c.advance(5_000);
    createAll(
      c,
      `apiVersion: v1
kind: Pod
metadata: {name: app}
spec:
  containers:
  - {name: main, image: nginx, resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}}
`,
    );
    c.advance(30_000);
    const quota = await kubectl(c, 'kubectl describe quota compute');
    // 128Mi against 2G (DecimalSI) prints as the plain number; the default/kubernetes Service counts.
    expect(quota.stdout).toBe(`Name:            compute
Namespace:       default
Resource         Used       Hard
--------         ----       ----
limits.memory    134217728  2G
pods             1          4
requests.cpu     250m       1
requests.memory  64Mi       1Gi
services         1          2
`);
    expect((await kubectl(c, 'kubectl describe resourcequota best-effort')).stdout).toBe(`Name:       best-effort
Namespace:  default
Scopes:     BestEffort
 * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.
Resource  Used  Hard
--------  ----  ----
pods      0     2
`);
    const ns = await kubectl(c, 'kubectl describe ns default');
    // Inside describe namespace, Used is printed as stored; lines without a tab end tabwriter's column blocks.
    expect(ns.stdout).toContain(`Resource Quotas
  Name:    best-effort
  Scopes:  BestEffort
  * Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.
  Resource         Used  Hard
  --------         ---   ---
  pods             0     2
  Name:            compute
  Resource         Used   Hard
  --------         ---    ---
  limits.memory    128Mi  2G
  pods             1      4
  requests.cpu     250m   1
  requests.memory  64Mi   1Gi
  services         1      2
`);
  });

  it('describes a LimitRange, with the defaults the API server filled in for Container limits', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    max: {cpu: "2", memory: 1Gi}
    min: {cpu: 100m, memory: 4Mi}
    default: {cpu: 500m}
    defaultRequest: {cpu: 250m}
    maxLimitRequestRatio: {cpu: "4"}
  - type: Pod
    max: {cpu: "4"}
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 10Gi}
`,
    );
    const limits = await kubectl(c, 'kubectl describe limits limits');
    // memory: no default given, so the default limit is the max and the default request the limit.
    expect(limits.stdout).toBe(`Name:                  limits
Namespace:             default
Type                   Resource  Min   Max   Default Request  Default Limit  Max Limit/Request Ratio
----                   --------  ---   ---   ---------------  -------------  -----------------------
Container              cpu       100m  2     250m             500m           4
Container              memory    4Mi   1Gi   1Gi              1Gi            -
Pod                    cpu       -     4     -                -              -
PersistentVolumeClaim  storage   1Gi   10Gi  -                -              -
`);
    const ns = await kubectl(c, 'kubectl describe namespace default');
    expect(ns.stdout).toContain(`Resource Limits
 Type                   Resource  Min   Max   Default Request  Default Limit  Max Limit/Request Ratio
 ----                   --------  ---   ---   ---------------  -------------  -----------------------
 Container              cpu       100m  2     250m             500m           4
 Container              memory    4Mi   1Gi   1Gi              1Gi            -
 Pod                    cpu       -     4     -                -              -
 PersistentVolumeClaim  storage   1Gi   10Gi  -                -              -
`);
  });
});
