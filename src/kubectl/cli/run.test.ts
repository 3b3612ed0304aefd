import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../control-plane/cluster';
import { versionCommand } from '../cmd/version';
import type { CommandSpec } from './command';
import { kubectl as run, type KubectlTestOptions } from './testing';

// Commands with kubectl's own texts, so the help layout can be compared with what kubectl v1.32 prints.
const createNamespace: CommandSpec = {
  path: ['create', 'namespace'],
  aliases: ['ns'],
  use: 'namespace NAME [--dry-run=server|client|none]',
  short: 'Create a namespace with the specified name',
  long: 'Create a namespace with the specified name.',
  example: '  # Create a new namespace named my-namespace\n  kubectl create namespace my-namespace',
  flags: [
    { name: 'allow-missing-template-keys', type: 'bool', default: true, usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.' },
    { name: 'dry-run', type: 'string', default: 'none', noOptDefault: 'unchanged', usage: 'Must be "none", "server", or "client". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource.' },
    { name: 'field-manager', type: 'string', default: 'kubectl-create', usage: 'Name of the manager used to track field ownership.' },
    { name: 'output', shorthand: 'o', type: 'string', default: '', usage: 'Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).' },
    { name: 'save-config', type: 'bool', default: false, usage: 'If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future.' },
    { name: 'show-managed-fields', type: 'bool', default: false, usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.' },
    { name: 'template', type: 'string', default: '', usage: 'Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview].' },
    { name: 'validate', type: 'string', default: 'strict', usage: 'Must be one of: strict (or true), warn, ignore (or false). "true" or "strict" will use a schema to validate the input and fail the request if invalid. It will perform server side validation if ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable client-side validation if not. "warn" will warn about unknown or duplicate fields without blocking the request if server-side field validation is enabled on the API server, and behave as "ignore" otherwise. "false" or "ignore" will not perform any schema validation, silently dropping any unknown or duplicate fields.' },
  ],
  run(env, args, flags, io) {
    env.client.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: args[0] } }, { dryRun: flags.get('dry-run') === 'server' });
    io.stdout(`namespace/${args[0]} created`);
    return 0;
  },
};

/** Prints what it was given: the env's namespace and user, its args and stdin; lists configmaps. */
const probe: CommandSpec = {
  path: ['get'],
  use: 'get [(-o|--output=)json|yaml|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags]',
  short: 'Display one or many resources',
  flags: [
    { name: 'replicas', type: 'int', default: 0, usage: 'n' },
    { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: 'f' },
  ],
  run(env, args, flags, io) {
    io.stdout(`namespace=${env.namespace} explicit=${env.namespaceExplicit} user=${env.user.username} args=${args.join(',')} dash=${flags.argsLenAtDash}`);
    if (env.stdin !== undefined) io.stdout(`stdin=${JSON.stringify(env.stdin)}`);
    env.client.configMaps.list({ namespace: env.namespace });
    io.stdout('listed');
    return 0;
  },
};

const rolloutStatus: CommandSpec = { path: ['rollout', 'status'], use: 'status (TYPE NAME | TYPE/NAME)', short: 'Show the status of the rollout', flagsInUseLine: true, flags: [], run: () => 0 };
const rolloutUndo: CommandSpec = { path: ['rollout', 'undo'], use: 'undo (TYPE NAME | TYPE/NAME)', short: 'Undo a previous rollout', flagsInUseLine: true, flags: [], run: () => 0 };
const setCmd: CommandSpec = { path: ['set', 'image'], use: 'image', short: 'Update the image of a pod template', flags: [], run: () => 0 };
const cp: CommandSpec = { path: ['cp'], use: 'cp', short: 'Copy files and directories to and from containers', flags: [], run: () => 0 };
const create: CommandSpec = { path: ['create'], use: 'create -f FILENAME', short: 'Create a resource from a file or from stdin', flags: [], run: () => 0 };

const commands = [create, setCmd, probe, rolloutStatus, rolloutUndo, cp, createNamespace, versionCommand];

let cluster: Cluster;
beforeAll(async () => {
  cluster = await createCluster({ controllers: false, scheduler: false, nodes: 0 });
});

const kubectl = (line: string, options: KubectlTestOptions = {}) => run(cluster, line, { commands, ...options });

describe('runKubectl: usage errors as kubectl v1.32 prints them', () => {
  it('an unknown command, with cobra suggestions in command order', async () => {
    expect(await kubectl('kubectl gt pods')).toMatchObject({
      stdout: '',
      stderr: 'error: unknown command "gt" for "kubectl"\n\nDid you mean this?\n\tset\n\tget\n\tcp\n',
      exitCode: 1,
    });
    expect(await kubectl('kubectl frobnicate')).toMatchObject({ stderr: 'error: unknown command "frobnicate" for "kubectl"\n', exitCode: 1 });
  });

  it('an unknown flag, a missing value, an invalid int', async () => {
    expect(await kubectl('kubectl get pods --foo')).toMatchObject({ stderr: "error: unknown flag: --foo\nSee 'kubectl get --help' for usage.\n", exitCode: 1 });
    expect(await kubectl('kubectl get pods -n')).toMatchObject({ stderr: "error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.\n", exitCode: 1 });
    expect(await kubectl('kubectl get --replicas=x deploy/a')).toMatchObject({
      stderr: 'error: invalid argument "x" for "--replicas" flag: strconv.ParseInt: parsing "x": invalid syntax\nSee \'kubectl get --help\' for usage.\n',
      exitCode: 1,
    });
    expect(await kubectl('kubectl create ns --bogus')).toMatchObject({ stderr: "error: unknown flag: --bogus\nSee 'kubectl create namespace --help' for usage.\n" });
  });

  it('a group run bare prints its help on stderr and fails; with a word it is an unknown command', async () => {
    const bare = await kubectl('kubectl rollout');
    expect(bare.exitCode).toBe(1);
    expect(bare.stdout).toBe('');
    expect(bare.stderr.split('\n').slice(0, 2)).toEqual(['Manage the rollout of one or many resources.', '        ']);
    expect(await kubectl('kubectl rollout foo')).toMatchObject({ stderr: 'error: unknown command "foo"\nSee \'kubectl rollout -h\' for help and examples\n', exitCode: 1 });
  });

  it('a shell syntax error', async () => {
    expect(await kubectl("kubectl get 'pods")).toMatchObject({ stderr: "bash: unexpected EOF while looking for matching `''\n", exitCode: 2 });
    expect(await kubectl('grep x')).toMatchObject({ stderr: 'error: unknown command "grep" for "kubectl"\n\nDid you mean this?\n\tget\n', exitCode: 1 });
    expect(await kubectl('kubectl version --client | sort')).toMatchObject({ stdout: '', stderr: 'bash: sort: command not found\n', exitCode: 127 });
  });
});

describe('runKubectl: help', () => {
  it('prints `kubectl create namespace --help` exactly as kubectl v1.32', async () => {
    const { stdout, exitCode } = await kubectl('kubectl create ns --help');
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`Create a namespace with the specified name.

Aliases:
namespace, ns

Examples:
  # Create a new namespace named my-namespace
  kubectl create namespace my-namespace

Options:
    --allow-missing-template-keys=true:
\tIf true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.

    --dry-run='none':
\tMust be "none", "server", or "client". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource.

    --field-manager='kubectl-create':
\tName of the manager used to track field ownership.

    -o, --output='':
\tOutput format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).

    --save-config=false:
\tIf true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future.

    --show-managed-fields=false:
\tIf true, keep the managedFields when printing objects in JSON or YAML format.

    --template='':
\tTemplate string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview].

    --validate='strict':
\tMust be one of: strict (or true), warn, ignore (or false). "true" or "strict" will use a schema to validate the input and fail the request if invalid. It will perform server side validation if ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable client-side validation if not. "warn" will warn about unknown or duplicate fields without blocking the request if server-side field validation is enabled on the API server, and behave as "ignore" otherwise. "false" or "ignore" will not perform any schema validation, silently dropping any unknown or duplicate fields.

Usage:
  kubectl create namespace NAME [--dry-run=server|client|none] [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`);
  });

  it('prints `kubectl version --help` exactly, with [flags] in the usage line; -h and `help version` too', async () => {
    const expected = `Print the client and server version information for the current context.

Examples:
  # Print the client and server versions for the current context
  kubectl version

Options:
    --client=false:
\tIf true, shows client version only (no server required).

    -o, --output='':
\tOne of 'yaml' or 'json'.

Usage:
  kubectl version [flags] [options]

Use "kubectl options" for a list of global command-line options (applies to all commands).
`;
    expect((await kubectl('kubectl version --help')).stdout).toBe(expected);
    expect((await kubectl('kubectl version -h')).stdout).toBe(expected);
    expect((await kubectl('kubectl help version')).stdout).toBe(expected);
  });

  it('a group lists its subcommands and the tip', async () => {
    const { stdout } = await kubectl('kubectl rollout --help');
    expect(stdout).toContain(`
Available Commands:
  status        Show the status of the rollout
  undo          Undo a previous rollout

Usage:
  kubectl rollout SUBCOMMAND [options]

Use "kubectl rollout <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`);
  });

  it('the root help groups commands as kubectl does', async () => {
    const { stdout, exitCode } = await kubectl('kubectl');
    expect(exitCode).toBe(0);
    expect(stdout).toBe(`kubectl controls the Kubernetes cluster manager.

 Find more information at: https://kubernetes.io/docs/reference/kubectl/

Basic Commands (Beginner):
  create        Create a resource from a file or from stdin
  set           Set specific features on objects

Basic Commands (Intermediate):
  get           Display one or many resources

Deploy Commands:
  rollout       Manage the rollout of a resource

Troubleshooting and Debugging Commands:
  cp            Copy files and directories to and from containers

Subcommands provided by plugins:

Other Commands:
  version       Print the client and server version information

Usage:
  kubectl [flags] [options]

Use "kubectl <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`);
    expect((await kubectl('kubectl --help')).stdout).toBe(stdout);
  });

  it('kubectl options lists the global flags', async () => {
    const { stdout } = await kubectl('kubectl options');
    expect(stdout).toContain(`The following options can be passed to any command:

    --as='':
\tUsername to impersonate for the operation. User could be a regular user or a service account in a namespace.

    --as-group=[]:
`);
    expect(stdout).toContain(`    -n, --namespace='':\n\tIf present, the namespace scope for this CLI request\n`);
  });
});

describe('runKubectl: global flags and the env', () => {
  it('finds the command after global flags and passes the rest', async () => {
    const r = await kubectl('kubectl -n kube-system get pods web -- ls -l');
    expect(r.stdout).toBe('namespace=kube-system explicit=true user=kubernetes-admin args=pods,web,ls,-l dash=2\nlisted\n');
  });

  it("uses the context's namespace, else default; --context picks another and an unknown one fails", async () => {
    const kubeconfig = {
      currentContext: 'a',
      contexts: [
        { name: 'a', cluster: 'kubeplay', user: 'admin', namespace: 'team-a' },
        { name: 'b', cluster: 'kubeplay', user: 'admin' },
      ],
    };
    expect((await kubectl('get pods', { kubeconfig })).stdout).toMatch(/^namespace=team-a explicit=false/);
    expect((await kubectl('get pods --context b', { kubeconfig })).stdout).toMatch(/^namespace=default explicit=false/);
    expect(await kubectl('get pods --context=nope', { kubeconfig })).toMatchObject({
      stderr: 'Error in configuration: context was not found for specified context: nope\n',
      exitCode: 1,
    });
  });

  it('--as impersonates through the API server, which authorizes it', async () => {
    const r = await kubectl('kubectl get configmaps --as jane');
    expect(r.stdout).toBe('namespace=default explicit=false user=jane args=configmaps dash=-1\n');
    expect(r.stderr).toBe('Error from server (Forbidden): configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default"\n');
    expect(r.exitCode).toBe(1);
    expect((await kubectl('kubectl get configmaps --as-group=system:masters')).stderr).toBe(
      'error: requesting uid, groups or user-extra for  without impersonating a user\n',
    );
    expect((await kubectl('kubectl get configmaps --as jane --as-group system:masters')).stdout).toContain('listed');
  });

  it('a heredoc (or cat <<EOF | kubectl) is stdin', async () => {
    const doc = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n';
    expect((await kubectl(`kubectl get -f - <<EOF\n${doc}EOF`)).stdout).toContain(`stdin=${JSON.stringify(doc)}`);
    expect((await kubectl(`cat <<'EOF' | kubectl get -f -\n${doc}EOF\n`)).stdout).toContain(`stdin=${JSON.stringify(doc)}`);
  });

  it('runs && / || / ; sequences with their exit codes', async () => {
    const r = await kubectl('kubectl create ns seq-1 && kubectl create ns seq-1 && kubectl create ns never || kubectl version --client');
    expect(r.stdout).toBe('namespace/seq-1 created\nClient Version: v1.32.0\nKustomize Version: v5.5.0\n');
    expect(r.stderr).toBe('Error from server (AlreadyExists): namespaces "seq-1" already exists\n');
    expect(r.exitCode).toBe(0);
    expect(() => cluster.client.namespaces.get('never')).toThrow();
  });

  it('an empty line (or a comment) does nothing', async () => {
    expect(await kubectl('   ')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
    expect(await kubectl('# kubectl get pods')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
  });
});

describe('runKubectl: pipelines', () => {
  it('filters kubectl output through grep, head, tail and wc, with their exit codes', async () => {
    expect(await kubectl('kubectl version | grep -i server')).toMatchObject({ stdout: 'Server Version: v1.32.0\n', exitCode: 0 });
    expect(await kubectl('kubectl version | grep -v Version')).toMatchObject({ stdout: '', exitCode: 1 });
    expect(await kubectl('kubectl version | grep -c "Client\\|Server"')).toMatchObject({ stdout: '2\n', exitCode: 0 });
    expect(await kubectl('kubectl version | grep -E "^(Client|Kustomize)" | tail -n 1')).toMatchObject({ stdout: 'Kustomize Version: v5.5.0\n', exitCode: 0 });
    expect(await kubectl('kubectl version | head -1')).toMatchObject({ stdout: 'Client Version: v1.32.0\n', exitCode: 0 });
    expect(await kubectl('kubectl version | wc -l')).toMatchObject({ stdout: '3\n', exitCode: 0 });
    expect(await kubectl('kubectl version --client | wc')).toMatchObject({ stdout: '      2       6      50\n' });
    expect(await kubectl('kubectl version | cat')).toMatchObject({ stdout: 'Client Version: v1.32.0\nKustomize Version: v5.5.0\nServer Version: v1.32.0\n' });
    expect(await kubectl('kubectl version | grep -q x')).toMatchObject({ stderr: "grep: invalid option -- 'q'\n", exitCode: 2 });
  });

  it("one kubectl's output is the next one's stdin; stderr is not piped", async () => {
    const r = await kubectl('kubectl version --client | kubectl get -f -');
    expect(r.stdout).toBe(`namespace=default explicit=false user=kubernetes-admin args= dash=-1\nstdin=${JSON.stringify('Client Version: v1.32.0\nKustomize Version: v5.5.0\n')}\nlisted\n`);
    expect(await kubectl('kubectl version --bogus | wc -l')).toMatchObject({ stdout: '0\n', stderr: "error: unknown flag: --bogus\nSee 'kubectl version --help' for usage.\n", exitCode: 0 });
  });

  it('echo and a heredoc feed filters too', async () => {
    expect(await kubectl('cat <<EOF | grep b\na\nb\nEOF')).toMatchObject({ stdout: 'b\n', exitCode: 0 });
    expect(await kubectl('echo hello | wc -c')).toMatchObject({ stdout: '6\n' });
  });
});
