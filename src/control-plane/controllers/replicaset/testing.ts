// Test helpers for workload controllers on a real cluster, standing in for the scheduler and the kubelet (built
// separately): bind a pod to a node through pods/binding, and report it Running and Ready through pods/status.
import type { Pod } from 'kubernetes-types/core/v1';
import type { Client, Typed } from '../../client/client';
import { rfc3339 } from '../../sim/clock';

/** Binds the pod to a node, as the scheduler would (pods/binding). */
export function bindPod(client: Client, pod: Pod, nodeName: string): void {
  client.handle({
    verb: 'create',
    group: '',
    version: 'v1',
    resource: 'pods',
    subresource: 'binding',
    namespace: pod.metadata?.namespace,
    name: pod.metadata?.name,
    body: {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: pod.metadata?.name, namespace: pod.metadata?.namespace },
      target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
    },
  });
}

/** Writes the status a kubelet reports for a started pod: Running, and Ready (or not) since nowMs. */
export function setPodRunning(client: Client, pod: Pod, nowMs: number, ready = true): Typed<Pod> {
  const fresh = client.pods.get(pod.metadata!.name!, { namespace: pod.metadata!.namespace });
  const t = rfc3339(nowMs);
  const status = ready ? 'True' : 'False';
  return client.pods.updateStatus({
    ...fresh,
    status: {
      ...fresh.status,
      phase: 'Running',
      startTime: fresh.status?.startTime ?? t,
      conditions: [
        { type: 'PodScheduled', status: 'True', lastTransitionTime: t },
        { type: 'Initialized', status: 'True', lastTransitionTime: t },
        { type: 'ContainersReady', status, lastTransitionTime: t },
        { type: 'Ready', status, lastTransitionTime: t },
      ],
      containerStatuses: (fresh.spec?.containers ?? []).map((c) => ({
        name: c.name,
        image: c.image ?? '',
        imageID: '',
        ready,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: t } },
      })),
    },
  });
}
