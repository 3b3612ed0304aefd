// describerMap: the kinds kubectl has a describer for, and the generic one for every other kind.
import type { ResourceType } from '../../shared/api/resources';
import type { Describer } from './context';
import { genericDescriber } from './generic';
import {
  describeConfigMap,
  describeEndpoints,
  describeLimitRange,
  describeNamespace,
  describeResourceQuota,
  describeSecret,
  describeService,
  describeServiceAccount,
} from './misc';
import { describeNode } from './node';
import { describePodDisruptionBudget, describePriorityClass } from './policy';
import { describePodByName } from './pod';
import {
  describeCronJob,
  describeDaemonSet,
  describeDeployment,
  describeJob,
  describeReplicaSet,
  describeReplicationController,
  describeStatefulSet,
} from './workloads';

const describers: Record<string, Describer> = {
  '/Pod': describePodByName,
  '/ReplicationController': describeReplicationController,
  '/Secret': describeSecret,
  '/Service': describeService,
  '/ServiceAccount': describeServiceAccount,
  '/Node': describeNode,
  '/LimitRange': describeLimitRange,
  '/ResourceQuota': describeResourceQuota,
  '/Namespace': describeNamespace,
  '/Endpoints': describeEndpoints,
  '/ConfigMap': describeConfigMap,
  'apps/Deployment': describeDeployment,
  'apps/ReplicaSet': describeReplicaSet,
  'apps/StatefulSet': describeStatefulSet,
  'apps/DaemonSet': describeDaemonSet,
  'batch/Job': describeJob,
  'batch/CronJob': describeCronJob,
  'policy/PodDisruptionBudget': describePodDisruptionBudget,
  'scheduling.k8s.io/PriorityClass': describePriorityClass,
};

/** Describer(): the kind's own describer, else the generic one. */
export function describerFor(rt: ResourceType): Describer {
  return describers[`${rt.group}/${rt.kind}`] ?? genericDescriber(rt);
}
