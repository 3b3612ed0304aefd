// The one workload every engine benchmark applies: a Deployment of P replicas of the pause image, no requests,
// no probes (as scheduler_perf's SchedulingBasic pods), so the figure is the control plane's own cost.
import type { Deployment } from 'kubernetes-types/apps/v1';

export const benchImage = 'registry.k8s.io/pause:3.10';

export function benchDeployment(replicas: number, name = 'bench'): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'pause', image: benchImage }] },
      },
    },
  };
}
