// 'sim/load' and 'sim/loads': a thin door onto the cluster's per-workload loads (control-plane/metrics/loads.ts),
// which validate, take effect at the metrics-server's next scrape and are saved with the cluster's meta. Setting
// one waits until that meta is durable, so a reload keeps it.
import { newBadRequest } from '../shared/api/status';
import type { WorkloadLoad } from '../shared/protocol/network';
import type { ServableCluster } from './serve';

/** What the worker needs of the cluster's loads (WorkloadLoads satisfies it). */
export interface WorkloadLoadsPort {
  /** Sets one workload's load (0 removes it); throws a 400 StatusError when a field is wrong. */
  set(params: unknown): WorkloadLoad[];
  list(): WorkloadLoad[];
}

function loadsOf(cluster: ServableCluster): WorkloadLoadsPort {
  if (!cluster.loads) throw newBadRequest('this cluster simulates no load');
  return cluster.loads;
}

export function listLoads(cluster: ServableCluster): WorkloadLoad[] {
  return loadsOf(cluster).list();
}

export async function setLoad(cluster: ServableCluster, params: WorkloadLoad): Promise<WorkloadLoad[]> {
  const loads = loadsOf(cluster).set(params);
  // The loads live in the cluster's meta, not in a revision: flush it rather than wait for a revision.
  await cluster.flush();
  return loads;
}
