// A pod's view of the data plane, as its programs see it (kubelet ProgramContext.network): requests leave from
// the pod, and names resolve through its namespace's search path.
import type { DataPlane } from './data-plane';
import type { PodNetwork } from './tools';

export function podNetwork(dataPlane: DataPlane, namespace: string, pod: string): PodNetwork {
  return {
    request: (req) => dataPlane.request({ from: { pod: { namespace, name: pod } }, url: req.url, ...(req.method ? { method: req.method } : {}), ...(req.host ? { host: req.host } : {}) }),
    lookup: (name) => dataPlane.lookup(name, namespace),
  };
}
