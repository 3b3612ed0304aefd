// A short status for an object, like the STATUS / READY column of kubectl get: "2/3", "Running",
// "CrashLoopBackOff", "Terminating", "Ready".
import type { KubeObject } from '../../shared/api/types';

interface Workload {
  spec?: { replicas?: number };
  status?: { readyReplicas?: number };
}

interface PodLike {
  status?: {
    phase?: string;
    reason?: string;
    containerStatuses?: { state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } }[];
  };
}

interface NodeLike {
  spec?: { unschedulable?: boolean };
  status?: { conditions?: { type: string; status: string }[] };
}

export function objectStatus(obj: KubeObject): string {
  if (obj.metadata.deletionTimestamp) return 'Terminating';
  switch (obj.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet': {
      const w = obj as KubeObject & Workload;
      return `${w.status?.readyReplicas ?? 0}/${w.spec?.replicas ?? 1}`;
    }
    case 'Pod': {
      const p = (obj as KubeObject & PodLike).status;
      // kubectl shows a container's waiting or terminated reason over the phase.
      for (const c of p?.containerStatuses ?? []) {
        const reason = c.state?.waiting?.reason ?? c.state?.terminated?.reason;
        if (reason) return reason;
      }
      return p?.reason ?? p?.phase ?? 'Pending';
    }
    case 'Node': {
      const n = obj as KubeObject & NodeLike;
      const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
      const text = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
      return n.spec?.unschedulable ? `${text},SchedulingDisabled` : text;
    }
    default:
      return '';
  }
}
