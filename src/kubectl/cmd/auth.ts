// kubectl auth can-i VERB TYPE[/NAME] | NONRESOURCEURL [-n] [-A] [--subresource] [--as] and --list
// (k8s.io/kubectl/pkg/cmd/auth/cani.go, v1.32): asks the API server with a SelfSubjectAccessReview (as the
// impersonated user with --as) and prints "yes", or "no" and exits 1; --list prints the SelfSubjectRulesReview's
// rules as kubectl's table.
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { LineWriter, newTabWriter } from '../printers/tabwriter';
import { CommandError, mappingFor } from '../resource-builder';
import { boolFlag, checkErr, guarded, stringFlag } from './create-common';

export const authCanICommand: CommandSpec = {
  path: ['auth', 'can-i'],
  use: 'can-i VERB [TYPE | TYPE/NAME | NONRESOURCEURL]',
  short: 'Check whether an action is allowed',
  long: "Check whether an action is allowed.\n\n VERB is a logical Kubernetes API verb like 'get', 'list', 'watch', 'delete', etc. TYPE is a Kubernetes resource. Shortcuts and groups will be resolved. NONRESOURCEURL is a partial URL that starts with \"/\". NAME is the name of a particular Kubernetes resource. This command pairs nicely with impersonation. See --as global flag.",
  example: "  # Check to see if I can create pods in any namespace\n  kubectl auth can-i create pods --all-namespaces\n  \n  # Check to see if I can list deployments in my current namespace\n  kubectl auth can-i list deployments.apps\n  \n  # Check to see if service account \"foo\" of namespace \"dev\" can list pods in the namespace \"prod\"\n  # You must be allowed to use impersonation for the global option \"--as\"\n  kubectl auth can-i list pods --as=system:serviceaccount:dev:foo -n prod\n  \n  # Check to see if I can do everything in my current namespace (\"*\" means all)\n  kubectl auth can-i '*' '*'\n  \n  # Check to see if I can get the job named \"bar\" in namespace \"foo\"\n  kubectl auth can-i list jobs.batch/bar -n foo\n  \n  # Check to see if I can read pod logs\n  kubectl auth can-i get pods --subresource=log\n  \n  # Check to see if I can access the URL /logs/\n  kubectl auth can-i get /logs/\n  \n  # Check to see if I can approve certificates.k8s.io\n  kubectl auth can-i approve certificates.k8s.io\n  \n  # List all allowed actions in namespace \"foo\"\n  kubectl auth can-i --list --namespace=foo",
  flags: [
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, usage: 'If true, check the specified action in all namespaces.' },
    { name: 'list', type: 'bool', default: false, usage: 'If true, prints all allowed actions.' },
    { name: 'no-headers', type: 'bool', default: false, usage: 'If true, prints allowed actions without headers' },
    { name: 'quiet', shorthand: 'q', type: 'bool', default: false, usage: 'If true, suppress output and just return the exit code.' },
    { name: 'subresource', type: 'string', default: '', usage: 'SubResource such as pod/log or deployment/scale' },
  ],
  run: (env, args, flags, io) => guarded(io, 'auth can-i', () => runCanI(env, args, flags, io)),
};

const resourceVerbs = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
const nonResourceURLVerbs = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);
// Resources the server knows that discovery does not list (the impersonate verb's users and groups).
const nonStandardResourceNames = new Set(['users', 'groups']);

interface Target {
  group: string;
  resource: string;
  name: string;
  namespaced: boolean;
  known: boolean;
}

/** WarningPrinter.Print of a message that itself ends in a newline: the warning, then an empty line. */
function warn(io: CommandIO, message: string): void {
  io.stderr(`Warning: ${message}`);
  io.stderr('');
}

/** resourceFor: the resource (plural) and group a TYPE argument maps to, or the argument itself with a warning. */
function resourceFor(env: KubectlEnv, arg: string, io: CommandIO): Target {
  if (arg === '*') return { group: '', resource: '*', name: '', namespaced: true, known: true };
  try {
    const rt = mappingFor(env.registry, arg.toLowerCase());
    return { group: rt.group, resource: rt.resource, name: '', namespaced: rt.namespaced, known: true };
  } catch {
    const lower = arg.toLowerCase();
    const dot = lower.indexOf('.');
    const resource = dot < 0 ? lower : lower.slice(0, dot);
    const group = dot < 0 ? '' : lower.slice(dot + 1);
    const gr = group ? `${resource}.${group}` : resource;
    if (!nonStandardResourceNames.has(gr)) {
      warn(io, group ? `the server doesn't have a resource type '${resource}' in group '${group}'` : `the server doesn't have a resource type '${resource}'`);
    }
    return { group: '', resource: arg, name: '', namespaced: true, known: false };
  }
}

function runCanI(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const list = boolFlag(flags, 'list');
  const quiet = boolFlag(flags, 'quiet');
  const allNamespaces = boolFlag(flags, 'all-namespaces');
  const subresource = stringFlag(flags, 'subresource');
  let verb = '';
  let nonResourceURL = '';
  let target: Target | undefined;
  if (list) {
    if (args.length !== 0) throw new CommandError('list option must be specified with no arguments');
  } else {
    if (args.length !== 2) {
      throw new CommandError("you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.");
    }
    verb = args[0];
    if (args[1].startsWith('/')) {
      nonResourceURL = args[1];
    } else {
      const [type, name] = splitOnce(args[1], '/');
      target = { ...resourceFor(env, type, io), name: name ?? '' };
    }
  }
  const namespace = allNamespaces ? '' : env.namespace;

  // Validate
  if (list) {
    if (quiet || allNamespaces || subresource) throw new CommandError("list option can't be specified with neither quiet, all-namespaces nor subresource options");
    return runAccessList(env, namespace, boolFlag(flags, 'no-headers'), io);
  }
  if (nonResourceURL) {
    if (subresource) throw new CommandError('--subresource can not be used with NonResourceURL');
    if (!nonResourceURLVerbs.has(verb)) warn(io, `verb '${verb}' is not a known verb`);
  } else if (target && !allNamespaces) {
    if (target.known && !target.namespaced && target.resource !== '*') {
      warn(io, target.group ? `resource '${target.resource}' is not namespace scoped in group '${target.group}'` : `resource '${target.resource}' is not namespace scoped`);
    }
    if (!resourceVerbs.has(verb)) warn(io, `verb '${verb}' is not a known verb`);
  }
  if (boolFlag(flags, 'no-headers')) throw new CommandError('--no-headers cannot be set without --list specified');

  const spec = nonResourceURL
    ? { nonResourceAttributes: { verb, path: nonResourceURL } }
    : {
        resourceAttributes: {
          ...(namespace ? { namespace } : {}),
          verb,
          ...(target!.group ? { group: target!.group } : {}),
          resource: target!.resource,
          ...(subresource ? { subresource } : {}),
          ...(target!.name ? { name: target!.name } : {}),
        },
      };
  const res = env.client.handle<{ status?: { allowed?: boolean; reason?: string; evaluationError?: string } }>({
    verb: 'create',
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'selfsubjectaccessreviews',
    body: { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status: { allowed: false } },
  });
  const status = res.body.status ?? {};
  if (status.allowed) {
    if (!quiet) io.stdout('yes');
    return 0;
  }
  if (!quiet) io.stdout(`no${status.reason ? ` - ${status.reason}` : ''}${status.evaluationError ? ` - ${status.evaluationError}` : ''}`);
  return 1;
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

interface Rule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

function runAccessList(env: KubectlEnv, namespace: string, noHeaders: boolean, io: CommandIO): number {
  const res = env.client.handle<{ status?: { resourceRules?: Rule[]; nonResourceRules?: Rule[]; incomplete?: boolean; evaluationError?: string } }>({
    verb: 'create',
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'selfsubjectrulesreviews',
    body: { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { namespace } },
  });
  const status = res.body.status ?? {};
  if (status.incomplete) io.stderr(`Warning: the list may be incomplete: ${status.evaluationError ?? ''}`);
  const rules: Rule[] = [
    ...(status.resourceRules ?? []).map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
    ...(status.nonResourceRules ?? []).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
  ];
  const compact = compactRules(rules.flatMap(breakdownRule)).sort((a, b) => compareGo(ruleString(a), ruleString(b)));
  const lines = new LineWriter((line) => io.stdout(line));
  const w = newTabWriter((text) => lines.write(text));
  if (!noHeaders) w.write('Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
  for (const r of compact) w.write(`${combineResourceGroup(r.resources ?? [], r.apiGroups ?? [])}\t${goList(r.nonResourceURLs)}\t${goList(r.resourceNames)}\t${goList(r.verbs)}\n`);
  w.flush();
  lines.close();
  return 0;
}

function compareGo(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** fmt's %v of a []string. */
function goList(list: string[] | undefined): string {
  return `[${(list ?? []).join(' ')}]`;
}

/** rbacv1.PolicyRule.String(), the key kubectl's SortableRuleSlice sorts by. */
function ruleString(r: Rule): string {
  return `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;
}

/** kubectl/pkg/util/rbac BreakdownRule: one rule per group × resource × verb (× name), and per URL × verb. */
function breakdownRule(rule: Rule): Rule[] {
  const out: Rule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if ((rule.resourceNames ?? []).length > 0) for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

/** kubectl/pkg/util/rbac CompactRules: rules on one group/resource (and at most one name) merge their verbs. */
function compactRules(rules: Rule[]): Rule[] {
  const compacted: Rule[] = [];
  const simple = new Map<string, Rule>();
  for (const rule of rules) {
    const isSimple = (rule.resourceNames ?? []).length <= 1 && (rule.nonResourceURLs ?? []).length === 0 && (rule.apiGroups ?? []).length === 1 && (rule.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = [rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? '\u0000'].join('\u0001');
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...compacted, ...simple.values()];
}

/** describe.CombineResourceGroup: "deployments.apps", "pods/log". */
function combineResourceGroup(resources: string[], groups: string[]): string {
  if (resources.length === 0) return '';
  const [base, sub] = splitOnce(resources[0], '/');
  let out = base;
  if (groups.length > 0 && groups[0] !== '') out += `.${groups[0]}`;
  if (sub !== undefined) out += `/${sub}`;
  return out;
}
