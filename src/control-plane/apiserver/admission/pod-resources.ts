// A pod's effective requests and limits (component-helpers/resource PodRequests/PodLimits): the sum of its
// containers and sidecars (restartable init containers), or the largest init-container phase if bigger.
// 2 containers of 100m + an init container of 500m → 500m; + a sidecar of 50m before it → 550m vs 250m → 550m.
import type { KubeObject } from '../../../shared/api/types';
import { type ResourceList, addInto, maxInto, parseResourceList } from './resource-list';

interface ContainerLike {
  name?: string;
  restartPolicy?: string;
  resources?: { requests?: unknown; limits?: unknown };
}

interface PodSpecLike {
  containers?: ContainerLike[];
  initContainers?: ContainerLike[];
  overhead?: unknown;
}

function aggregate(pod: KubeObject, field: 'requests' | 'limits', includeOverhead: boolean): ResourceList {
  const spec = (pod.spec ?? {}) as PodSpecLike;
  const total: ResourceList = new Map();
  for (const c of spec.containers ?? []) addInto(total, parseResourceList(c.resources?.[field]));
  const sidecars: ResourceList = new Map();
  const initPhase: ResourceList = new Map();
  for (const c of spec.initContainers ?? []) {
    const own = parseResourceList(c.resources?.[field]);
    let phase: ResourceList;
    if (c.restartPolicy === 'Always') {
      // A sidecar keeps running: it adds to the pod and to every later init container's phase.
      addInto(total, own);
      addInto(sidecars, own);
      phase = sidecars;
    } else {
      phase = new Map();
      addInto(phase, own);
      addInto(phase, sidecars);
    }
    maxInto(initPhase, phase);
  }
  maxInto(total, initPhase);
  if (includeOverhead) {
    const overhead = parseResourceList(spec.overhead);
    if (field === 'requests') addInto(total, overhead);
    else {
      // Overhead only raises limits that are set: an unset limit stays unlimited.
      for (const [k, v] of overhead) if (total.has(k)) addInto(total, new Map([[k, v]]));
    }
  }
  return total;
}

export function podRequests(pod: KubeObject, opts: { includeOverhead: boolean }): ResourceList {
  return aggregate(pod, 'requests', opts.includeOverhead);
}

export function podLimits(pod: KubeObject, opts: { includeOverhead: boolean }): ResourceList {
  return aggregate(pod, 'limits', opts.includeOverhead);
}
