// The demo-timing settings (cluster/settings, cluster/configure): a thin door onto the cluster's live settings
// (control-plane/config/cluster-settings.ts), which validate, apply at once to the running components and are
// saved with the cluster's meta. configure waits until that meta is durable, so a reload keeps the change.
import { newBadRequest } from '../shared/api/status';
import type { ClusterSettings, ClusterSettingsView } from '../shared/protocol/introspection';
import type { ServableCluster } from './serve';

/** What the worker needs of the cluster's settings (LiveClusterSettings satisfies it). */
export interface ClusterSettingsPort {
  view(): ClusterSettingsView;
  /** Validates and applies a partial update; throws a 400 StatusError (changing nothing) when a field is wrong. */
  configure(params: unknown): unknown;
}

function settingsOf(cluster: ServableCluster): ClusterSettingsPort {
  if (!cluster.settings) throw newBadRequest('this cluster has no settings to configure');
  return cluster.settings;
}

export function readSettings(cluster: ServableCluster): ClusterSettingsView {
  return settingsOf(cluster).view();
}

export async function configureCluster(cluster: ServableCluster, params: Partial<ClusterSettings>): Promise<ClusterSettingsView> {
  const settings = settingsOf(cluster);
  settings.configure(params);
  // The settings live in the cluster's meta, not in a revision: flush it rather than wait for a revision.
  await cluster.flush();
  return settings.view();
}
