// kubectl's command groups that only hold subcommands (rollout, set, config, auth, top, create secret, create
// service), with their v1.32 help texts, for when no module registers the parent itself. Run bare, each prints its
// help and exits 1 (cmdutil.DefaultSubCommandRun); with an argument, `error: unknown command "x"`.
import type { CommandSpec } from './command';

export type GroupSpec = Omit<CommandSpec, 'run' | 'flags'>;

export const commandGroups: GroupSpec[] = [
  {
    path: ['rollout'],
    use: 'rollout SUBCOMMAND',
    short: 'Manage the rollout of a resource',
    long: 'Manage the rollout of one or many resources.\n        \n Valid resource types include:\n\n  *  deployments\n  *  daemonsets\n  *  statefulsets',
    example:
      "  # Rollback to the previous deployment\n  kubectl rollout undo deployment/abc\n  \n  # Check the rollout status of a daemonset\n  kubectl rollout status daemonset/foo\n  \n  # Restart a deployment\n  kubectl rollout restart deployment/abc\n  \n  # Restart deployments with the 'app=nginx' label\n  kubectl rollout restart deployment --selector=app=nginx",
  },
  {
    path: ['set'],
    use: 'set SUBCOMMAND',
    short: 'Set specific features on objects',
    long: 'Configure application resources.\n\n These commands help you make changes to existing application resources.',
  },
  {
    path: ['config'],
    use: 'config SUBCOMMAND',
    short: 'Modify kubeconfig files',
    long: 'Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".\n\n The loading order follows these rules:\n\n  1.  If the --kubeconfig flag is set, then only that file is loaded. The flag may only be set once and no merging takes place.\n  2.  If $KUBECONFIG environment variable is set, then it is used as a list of paths (normal path delimiting rules for your system). These paths are merged. When a value is modified, it is modified in the file that defines the stanza. When a value is created, it is created in the first file that exists. If no files in the chain exist, then it creates the last file in the list.\n  3.  Otherwise, ${HOME}/.kube/config is used and no merging takes place.',
  },
  {
    path: ['auth'],
    use: 'auth',
    short: 'Inspect authorization',
    long: 'Inspect authorization.',
    flagsInUseLine: true,
  },
  {
    path: ['top'],
    use: 'top',
    short: 'Display resource (CPU/memory) usage',
    long: 'Display resource (CPU/memory) usage.\n\n The top command allows you to see the resource consumption for nodes or pods.\n\n This command requires Metrics Server to be correctly configured and working on the server.',
    flagsInUseLine: true,
  },
  {
    path: ['create', 'secret'],
    use: 'secret (docker-registry | generic | tls)',
    short: 'Create a secret using a specified subcommand',
    long: 'Create a secret with specified type.\n\n A docker-registry type secret is for accessing a container registry.\n\n A generic type secret indicate an Opaque secret type.\n\n A tls type secret holds TLS certificate and its associated key.',
  },
  {
    path: ['create', 'service'],
    aliases: ['svc'],
    use: 'service',
    short: 'Create a service using a specified subcommand',
    long: 'Create a service using a specified subcommand.',
    flagsInUseLine: true,
  },
];
