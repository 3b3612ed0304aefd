// pkg/controller/util/endpoint TriggerTimeTracker: the value of endpoints.kubernetes.io/last-change-trigger-time,
// the earliest time of a change (a pod's Ready transition, the Service's creation) not yet reflected in the
// service's endpoints. Zero (undefined) when nothing changed: the annotation is then cleared.
import type { Pod, Service } from 'kubernetes-types/core/v1';
import { getPodReadyCondition, parseTime } from '../shared/controller-utils';

interface ServiceState {
  lastPodTriggerTimes: Map<string, number>;
  lastServiceTriggerTime: number | undefined;
}

function minTime(a: number | undefined, b: number): number {
  return a === undefined || b < a ? b : a;
}

export class TriggerTimeTracker {
  private readonly serviceStates = new Map<string, ServiceState>();

  /** ComputeEndpointLastChangeTriggerTime, in ms; undefined for Go's zero time. */
  computeEndpointLastChangeTriggerTime(namespace: string, service: Service, pods: readonly Pod[]): number | undefined {
    const key = `${namespace}/${service.metadata?.name ?? ''}`;
    const state = this.serviceStates.get(key);
    let minChanged: number | undefined;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = parseTime(getPodReadyCondition(pod)?.lastTransitionTime);
      if (t === undefined) continue;
      const name = pod.metadata?.name ?? '';
      podTimes.set(name, t);
      const last = state?.lastPodTriggerTimes.get(name);
      if (last === undefined || t > last) minChanged = minTime(minChanged, t);
    }
    const svcTime = parseTime(service.metadata?.creationTimestamp);
    if (svcTime !== undefined && (state?.lastServiceTriggerTime === undefined || svcTime > state.lastServiceTriggerTime)) {
      minChanged = minTime(minChanged, svcTime);
    }
    this.serviceStates.set(key, { lastPodTriggerTimes: podTimes, lastServiceTriggerTime: svcTime });
    // A Service seen for the first time: its creation is the trigger.
    if (!state) return svcTime;
    return minChanged;
  }

  deleteService(namespace: string, name: string): void {
    this.serviceStates.delete(`${namespace}/${name}`);
  }
}

/** time.Time.UTC().Format(time.RFC3339Nano): fractional seconds without trailing zeros. */
export function formatRFC3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d+)Z$/, (_m, frac: string) => {
    const f = frac.replace(/0+$/, '');
    return f ? `.${f}Z` : 'Z';
  });
}
