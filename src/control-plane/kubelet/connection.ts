// The kubelet's own network path to the API server (an ApiConnection over its client's port). Partitioning it
// makes every request fail as a dial across a cut network does ("no route to host") and ends open watches with
// an error so the reflector starts relisting (and keeps failing until the network returns); the pods keep
// running meanwhile.
import type { ApiRequest } from '../apiserver/types';
import { StatusError } from '../../shared/api/status';
import { ApiConnection } from '../client/connection';
import type { ApiServerPort } from '../client/client';
import type { Clock } from '../sim/clock';

/** The node's view of the control-plane endpoint (kubeadm's default advertise address). */
const kubeletApiServerAddress = '192.168.49.1:8443';

/** `Get "https://192.168.49.1:8443/api/v1/…": dial tcp 192.168.49.1:8443: connect: no route to host`. */
export function noRouteToHost(req: ApiRequest | undefined, address = kubeletApiServerAddress): StatusError {
  const path =
    req?.resource
      ? `/${req.group ? `apis/${req.group}` : 'api'}/${req.version}/${req.namespace ? `namespaces/${req.namespace}/` : ''}${req.resource}${req.name ? `/${req.name}` : ''}`
      : '/';
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Get "https://${address}${path}": dial tcp ${address}: connect: no route to host`,
    reason: 'ServiceUnavailable',
    code: 503,
  });
}

export function kubeletConnection(server: ApiServerPort, clock: Clock): ApiConnection {
  return new ApiConnection(server, clock, (req) => noRouteToHost(req));
}
