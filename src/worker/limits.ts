// The playground limits (cluster/limits): kubeplay's own caps with what they are measured against now, for the
// Settings dialog. A thin door onto the cluster's LivePlaygroundLimits (control-plane/config); reading it sizes
// the objects changed since the last read, so the page asks when the dialog opens, not on every frame.
import { newBadRequest } from '../shared/api/status';
import type { PlaygroundLimitsView } from '../control-plane/config/playground-limits';

/** What the worker needs of the cluster's limits (LivePlaygroundLimits satisfies it). */
export interface PlaygroundLimitsPort {
  view(now: number): PlaygroundLimitsView;
}

/** A cluster with limits (src/control-plane/cluster.ts's Cluster; any ServableCluster is accepted and refused if it has none). */
export interface LimitedCluster {
  readonly clock: { now(): number };
  readonly limits?: PlaygroundLimitsPort;
}

export function readPlaygroundLimits(cluster: LimitedCluster): PlaygroundLimitsView {
  if (!cluster.limits) throw newBadRequest('this cluster has no playground limits');
  return cluster.limits.view(cluster.clock.now());
}
