// polymorphichelpers.UpdatePodSpecForObject (k8s.io/kubectl v0.32.4 pkg/polymorphichelpers/updatepodspec.go):
// where the pod spec of an object with pods lives, for set image / set env.
import type { PodSpec } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../shared/api/types';

/** The object's pod spec (created empty where missing), or throws kubectl's error for a kind without one. */
export function podSpecOf(obj: KubeObject): PodSpec {
  const o = obj as KubeObject & { spec?: Record<string, unknown> };
  const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
  const version = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[1] : obj.apiVersion;
  const spec = (): Record<string, unknown> => (o.spec ??= {});
  const child = (parent: Record<string, unknown>, key: string): Record<string, unknown> => ((parent[key] ??= {}) as Record<string, unknown>);
  switch (`${group}/${obj.kind}`) {
    case '/Pod':
      return spec() as unknown as PodSpec;
    case '/ReplicationController':
    case 'apps/Deployment':
    case 'extensions/Deployment':
    case 'apps/DaemonSet':
    case 'extensions/DaemonSet':
    case 'apps/ReplicaSet':
    case 'extensions/ReplicaSet':
    case 'apps/StatefulSet':
    case 'batch/Job':
      return child(child(spec(), 'template'), 'spec') as unknown as PodSpec;
    case 'batch/CronJob':
      return child(child(child(child(spec(), 'jobTemplate'), 'spec'), 'template'), 'spec') as unknown as PodSpec;
    default:
      throw new Error(`the object is not a pod or does not have a pod template: *${version}.${obj.kind}`);
  }
}
