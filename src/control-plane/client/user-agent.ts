// client-go's default User-Agent (rest.DefaultKubernetesUserAgent): "<command>/<version> (<os>/<arch>)
// kubernetes/<commit>". The API server records a write's field manager from its first segment when the request
// names none, so a kubelet's status writes are owned by "kubelet" and the controllers' by
// "kube-controller-manager".
import { kubeletVersion } from '../kubelet/node-status';

/** The v1.32.0 release's commit, as /version and the User-Agent report it. */
export const kubernetesGitCommit = '70d3cc986aa8221cd1dfb1121852688902d3bf53';

export function defaultUserAgent(command: string): string {
  return `${command}/${kubeletVersion} (linux/amd64) kubernetes/${kubernetesGitCommit.slice(0, 7)}`;
}
