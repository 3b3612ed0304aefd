// kubectl version [--client] [-o yaml|json] (k8s.io/kubectl pkg/cmd/version): the client's build, the bundled
// kustomize's, and the API server's (GET /version). kubeplay's control plane and this kubectl are v1.32.0, the
// version its kubelets report in nodeInfo.
import { kubernetesGitCommit } from '../../control-plane/client/user-agent';
import { kubeletVersion } from '../../control-plane/kubelet/node-status';
import type { CommandSpec } from '../cli/command';

/** version.Info of a v1.32.0 build, as /version serves it and `kubectl version -o json` prints it. */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

const gitVersion = kubeletVersion;

export const clientVersionInfo: VersionInfo = {
  major: '1',
  minor: '32',
  gitVersion,
  gitCommit: kubernetesGitCommit,
  gitTreeState: 'clean',
  buildDate: '2024-12-11T18:04:20Z',
  goVersion: 'go1.23.3',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export const serverVersionInfo: VersionInfo = { ...clientVersionInfo, buildDate: '2024-12-11T17:59:15Z' };

export const kustomizeVersion = 'v5.5.0';

/** sigs.k8s.io/yaml of a version.Info: keys sorted, strings that would read as numbers or times quoted. */
function infoYaml(info: VersionInfo): string[] {
  const quote = (v: string): string => (/^[0-9]+$/.test(v) || /^\d{4}-\d\d-\d\dT/.test(v) ? JSON.stringify(v) : v);
  return (Object.keys(info) as (keyof VersionInfo)[]).sort().map((k) => `  ${k}: ${quote(info[k])}`);
}

export const versionCommand: CommandSpec = {
  path: ['version'],
  use: 'version',
  short: 'Print the client and server version information',
  long: 'Print the client and server version information for the current context.',
  example: '  # Print the client and server versions for the current context\n  kubectl version',
  flagsInUseLine: true,
  flags: [
    { name: 'client', type: 'bool', default: false, usage: 'If true, shows client version only (no server required).' },
    { name: 'output', shorthand: 'o', type: 'string', default: '', usage: "One of 'yaml' or 'json'." },
  ],
  run(_env, _args, flags, io) {
    const output = flags.get<string>('output') ?? '';
    if (output !== '' && output !== 'yaml' && output !== 'json') {
      io.stderr("error: --output must be 'yaml' or 'json'");
      return 1;
    }
    const clientOnly = flags.get<boolean>('client') === true;
    const server = clientOnly ? undefined : serverVersionInfo;
    if (output === 'json') {
      const doc = { clientVersion: clientVersionInfo, kustomizeVersion, ...(server ? { serverVersion: server } : {}) };
      for (const line of JSON.stringify(doc, null, 2).split('\n')) io.stdout(line);
    } else if (output === 'yaml') {
      const lines = ['clientVersion:', ...infoYaml(clientVersionInfo), `kustomizeVersion: ${kustomizeVersion}`];
      if (server) lines.push('serverVersion:', ...infoYaml(server));
      // kubectl prints the YAML document with Println: a blank line follows it.
      for (const line of [...lines, '']) io.stdout(line);
    } else {
      io.stdout(`Client Version: ${clientVersionInfo.gitVersion}`);
      io.stdout(`Kustomize Version: ${kustomizeVersion}`);
      if (server) io.stdout(`Server Version: ${server.gitVersion}`);
    }
    return 0;
  },
};
