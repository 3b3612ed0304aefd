// The demo-timing settings (cluster/settings, cluster/configure).
import { newBadRequest } from '../shared/api/status';
import type { ClusterSettings, ClusterSettingsView } from '../shared/protocol/introspection';
import type { ServableCluster } from './serve';

export function readSettings(_cluster: ServableCluster): ClusterSettingsView {
  throw newBadRequest('cluster/settings is not available yet');
}

export function configureCluster(_cluster: ServableCluster, _params: Partial<ClusterSettings>): ClusterSettingsView {
  throw newBadRequest('cluster/configure is not available yet');
}
