// framework.Handle, reduced to what the in-tree plugins use: listers from the shared informers (for default
// spreading selectors, namespace selectors, preemption's pod lookups), the client, the event recorder and the rng.
import type { Namespace, PersistentVolumeClaim, ReplicationController, Service } from 'kubernetes-types/core/v1';
import type { StorageClass } from 'kubernetes-types/storage/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { Client, Typed } from '../../client/client';
import type { EventRecorder } from '../../client/record/event-recorder';
import type { Lister } from '../../informers/shared-informer';
import type { Clock } from '../../sim/clock';
import type { Rng } from '../../sim/rng';
import type { PodObject } from './types';

export interface Handle {
  client: Client;
  clock: Clock;
  rng: Rng;
  recorder: EventRecorder;
  schedulerName: string;
  podLister: Lister<PodObject>;
  serviceLister?: Lister<Typed<Service>>;
  replicationControllerLister?: Lister<Typed<ReplicationController>>;
  replicaSetLister?: Lister<Typed<ReplicaSet>>;
  statefulSetLister?: Lister<Typed<StatefulSet>>;
  namespaceLister?: Lister<Typed<Namespace>>;
  persistentVolumeClaimLister?: Lister<Typed<PersistentVolumeClaim>>;
  storageClassLister?: Lister<Typed<StorageClass>>;
  /** Preemption prefers victims whose PodDisruptionBudget allows the disruption. */
  podDisruptionBudgetLister?: Lister<Typed<PodDisruptionBudget>>;
}
