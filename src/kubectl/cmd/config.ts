// kubectl config get-contexts | current-context | set-context | use-context | view (k8s.io/kubectl/pkg/cmd/config,
// v1.32), over the page's kubeconfig (env.kubeconfig, replaced with env.setKubeconfig). kubeplay keeps only the
// contexts; `config view` shows them with the one cluster they all point at (the playground's API server) and
// their users, secrets shown as kubectl redacts them.
import { toYaml } from '../../shared/lib/yaml';
import type { CommandIO, CommandSpec, FlagValues, KubeConfig, KubectlEnv } from '../cli/command';
import { helpText } from '../cli/help';
import { buildCommandTree, findCommand } from '../cli/tree';
import { newTabWriter, LineWriter } from '../printers/tabwriter';
import { printerFor } from '../printers/print';
import { CommandError } from '../resource-builder';
import { kubeplayServerURL } from './cluster-info';
import { boolFlag, checkErr, goJsonIndent, guarded, stringFlag, writeLines } from './create-common';

export const configGetContextsCommand: CommandSpec = {
  path: ['config', 'get-contexts'],
  use: 'get-contexts [(-o|--output=)name)]',
  short: 'Describe one or many contexts',
  long: 'Display one or many contexts from the kubeconfig file.',
  example: '  # List all the contexts in your kubeconfig file\n  kubectl config get-contexts\n  \n  # Describe one context in your kubeconfig file\n  kubectl config get-contexts my-context',
  flags: [
    { name: 'no-headers', type: 'bool', default: false, usage: "When using the default or custom-column output format, don't print headers (default print headers)." },
    { name: 'output', shorthand: 'o', type: 'string', default: '', usage: 'Output format. One of: (name).' },
  ],
  run: (env, args, flags, io) => guarded(io, 'config get-contexts', () => runGetContexts(env, args, flags, io)),
};

export const configCurrentContextCommand: CommandSpec = {
  path: ['config', 'current-context'],
  use: 'current-context',
  flagsInUseLine: true,
  short: 'Display the current-context',
  long: 'Display the current-context.',
  example: '  # Display the current-context\n  kubectl config current-context',
  flags: [],
  run: (env, _args, _flags, io) =>
    guarded(io, 'config current-context', () => {
      if (!env.kubeconfig.currentContext) throw new CommandError('current-context is not set');
      io.stdout(env.kubeconfig.currentContext);
      return 0;
    }),
};

export const configSetContextCommand: CommandSpec = {
  path: ['config', 'set-context'],
  use: 'set-context [NAME | --current] [--cluster=cluster_nickname] [--user=user_nickname] [--namespace=namespace]',
  short: 'Set a context entry in kubeconfig',
  long: 'Set a context entry in kubeconfig.\n\n Specifying a name that already exists will merge new fields on top of existing values for those fields.',
  example: '  # Set the user field on the gce context entry without touching other values\n  kubectl config set-context gce --user=cluster-admin',
  flags: [
    { name: 'cluster', type: 'string', default: '', usage: 'cluster for the context entry in kubeconfig' },
    { name: 'current', type: 'bool', default: false, usage: 'Modify the current context' },
    { name: 'namespace', type: 'string', default: '', usage: 'namespace for the context entry in kubeconfig' },
    { name: 'user', type: 'string', default: '', usage: 'user for the context entry in kubeconfig' },
  ],
  run: (env, args, flags, io) => guarded(io, 'config set-context', () => runSetContext(env, args, flags, io)),
};

export const configUseContextCommand: CommandSpec = {
  path: ['config', 'use-context'],
  aliases: ['use'],
  use: 'use-context CONTEXT_NAME',
  short: 'Set the current-context in a kubeconfig file',
  long: 'Set the current-context in a kubeconfig file.',
  example: '  # Use the context for the minikube cluster\n  kubectl config use-context minikube',
  flags: [],
  run: (env, args, _flags, io) => guarded(io, 'config use-context', () => runUseContext(env, args, io)),
};

export const configViewCommand: CommandSpec = {
  path: ['config', 'view'],
  use: 'view',
  flagsInUseLine: true,
  short: 'Display merged kubeconfig settings or a specified kubeconfig file',
  long: 'Display merged kubeconfig settings or a specified kubeconfig file.\n\n You can use --output jsonpath={...} to extract specific values using a jsonpath expression.',
  example:
    '  # Show merged kubeconfig settings\n  kubectl config view\n  \n  # Show merged kubeconfig settings, raw certificate data, and exposed secrets\n  kubectl config view --raw\n  \n  # Get the password for the e2e user\n  kubectl config view -o jsonpath=\'{.users[?(@.name == "e2e")].user.password}\'',
  flags: [
    { name: 'allow-missing-template-keys', type: 'bool', default: true, usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.' },
    { name: 'merge', type: 'bool', default: true, usage: 'Merge the full hierarchy of kubeconfig files' },
    { name: 'minify', type: 'bool', default: false, usage: 'Remove all information not used by current-context from the output' },
    { name: 'output', shorthand: 'o', type: 'string', default: 'yaml', usage: 'Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).' },
  ],
  run: (env, _args, flags, io) => guarded(io, 'config view', () => runView(env, flags, io)),
};

function runGetContexts(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const output = stringFlag(flags, 'output');
  if (output !== '' && output !== 'name') throw new CommandError(`--output ${output} is not available in kubectl config get-contexts; resetting to default output format`);
  const nameOnly = output === 'name';
  const showHeaders = !boolFlag(flags, 'no-headers') && !nameOnly;
  const config = env.kubeconfig;
  const byName = new Map(config.contexts.map((c) => [c.name, c]));
  const errors: Error[] = [];
  const toPrint: string[] = [];
  if (args.length === 0) toPrint.push(...byName.keys());
  for (const name of args) {
    if (byName.has(name)) toPrint.push(name);
    else errors.push(new CommandError(`context ${name} not found`));
  }
  const lines = new LineWriter((line) => io.stdout(line));
  const w = newTabWriter((text) => lines.write(text));
  if (showHeaders) w.write('CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE\n');
  for (const name of toPrint.sort(compareGo)) {
    const c = byName.get(name)!;
    if (nameOnly) w.write(`${name}\n`);
    else w.write(`${config.currentContext === name ? '*' : ' '}\t${name}\t${c.cluster}\t${c.user}\t${c.namespace ?? ''}\n`);
  }
  w.flush();
  lines.close();
  if (errors.length > 0) return checkErr(io, errors.length === 1 ? errors[0] : errors);
  return 0;
}

function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function runSetContext(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  if (args.length > 1) return helpError(io, configSetContextCommand, `Unexpected args: [${args.join(' ')}]`);
  const current = boolFlag(flags, 'current');
  let name = args[0] ?? '';
  if (!name && !current) throw new CommandError('you must specify a non-empty context name or --current');
  if (name && current) throw new CommandError('you cannot specify both a context name and --current');
  const config = env.kubeconfig;
  if (current) {
    if (!config.currentContext) throw new CommandError('no current context is set');
    name = config.currentContext;
  }
  const existing = config.contexts.find((c) => c.name === name);
  const context = { ...(existing ?? { name, cluster: '', user: '' }) };
  if (flags.changed('cluster')) context.cluster = stringFlag(flags, 'cluster');
  if (flags.changed('user')) context.user = stringFlag(flags, 'user');
  if (flags.changed('namespace')) {
    const ns = stringFlag(flags, 'namespace');
    if (ns) context.namespace = ns;
    else delete context.namespace;
  }
  const contexts = existing ? config.contexts.map((c) => (c.name === name ? context : c)) : [...config.contexts, context];
  env.setKubeconfig({ ...config, contexts });
  io.stdout(`Context ${JSON.stringify(name)} ${existing ? 'modified' : 'created'}.`);
  return 0;
}

function runUseContext(env: KubectlEnv, args: string[], io: CommandIO): number {
  if (args.length !== 1) return helpError(io, configUseContextCommand, `Unexpected args: [${args.join(' ')}]`);
  const name = args[0];
  if (!name) throw new CommandError('empty context names are not allowed');
  if (!env.kubeconfig.contexts.some((c) => c.name === name)) throw new CommandError(`no context exists with the name: ${JSON.stringify(name)}`);
  env.setKubeconfig({ ...env.kubeconfig, currentContext: name });
  io.stdout(`Switched to context ${JSON.stringify(name)}.`);
  return 0;
}

/** config.go helpErrorf: the command's help on stdout, then the error. */
function helpError(io: CommandIO, spec: CommandSpec, message: string): number {
  const root = buildCommandTree([spec]);
  const { node } = findCommand(root, spec.path);
  for (const line of helpText(node)) io.stdout(line);
  return checkErr(io, new CommandError(message));
}

// ------------------------------------------------------------------ view

/** The kubeconfig as clientcmd's v1 Config, redacted and shortened as `config view` prints it (Go field order). */
export function kubeconfigDocument(config: KubeConfig, minify: boolean): Record<string, unknown> {
  let contexts = [...config.contexts].sort((a, b) => compareGo(a.name, b.name));
  if (minify) {
    if (!config.currentContext) throw new CommandError('current-context must exist in order to minify');
    const current = contexts.find((c) => c.name === config.currentContext);
    if (!current) throw new CommandError(`cannot locate context ${config.currentContext}`);
    contexts = [current];
  }
  const clusters = [...new Set(contexts.map((c) => c.cluster).filter(Boolean))].sort(compareGo);
  const users = [...new Set(contexts.map((c) => c.user).filter(Boolean))].sort(compareGo);
  return {
    kind: 'Config',
    apiVersion: 'v1',
    preferences: {},
    clusters: clusters.map((name) => ({ name, cluster: { server: kubeplayServerURL, 'certificate-authority-data': 'DATA+OMITTED' } })),
    users: users.map((name) => ({ name, user: { 'client-certificate-data': 'DATA+OMITTED', 'client-key-data': 'DATA+OMITTED' } })),
    contexts: contexts.map((c) => ({ name: c.name, context: { cluster: c.cluster, user: c.user, ...(c.namespace ? { namespace: c.namespace } : {}) } })),
    'current-context': config.currentContext,
  };
}

function runView(env: KubectlEnv, flags: FlagValues, io: CommandIO): number {
  const output = stringFlag(flags, 'output') || 'yaml';
  const doc = kubeconfigDocument(env.kubeconfig, boolFlag(flags, 'minify'));
  if (output === 'yaml') {
    writeLines((l) => io.stdout(l), toYaml(doc));
    return 0;
  }
  if (output === 'json') {
    writeLines((l) => io.stdout(l), goJsonIndent(doc));
    return 0;
  }
  const printer = printerFor({ output, allowMissingTemplateKeys: boolFlag(flags, 'allow-missing-template-keys') });
  if (!printer) throw new CommandError(`unable to match a printer suitable for the output format ${JSON.stringify(output)}`);
  const lines = new LineWriter((line) => io.stdout(line));
  printer.printObj(doc as never, (text) => lines.write(text));
  lines.close();
  return 0;
}
