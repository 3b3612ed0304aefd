// kubectl set env (k8s.io/kubectl v0.32.4 pkg/cmd/set/set_env.go): KEY=VALUE sets, KEY- removes, -e adds
// more, --from=configmap/x|secret/x imports their keys (valueFrom references, --keys to choose, --prefix to
// rename), -c picks containers by wildcard, --list prints the environment instead of changing it (--resolve
// shows referenced values). Changes go out as a strategic merge patch: `deployment.apps/nginx env updated`.
import type { ConfigMap, Container, EnvVar, EnvVarSource, Secret } from 'kubernetes-types/core/v1';
import type { CommandIO, CommandSpec, KubectlEnv } from '../cli/command';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import { isEnvVarName, isQualifiedName } from '../../shared/lib/validation';
import { parseQuantity, toMillis, toValue } from '../../shared/lib/quantity';
import { AggregateError, checkErr, messageOf } from '../rollout/check-err';
import { boolFlag, DryRun, dryRunFlag, dryRunStrategy, fieldManagerFlag, filenameFlags, printFlags, selectorFlag, stringFlag, stringListFlag } from '../rollout/flags';
import { calculatePatch, isEmptyPatch } from '../rollout/patch';
import { podSpecOf } from '../rollout/pod-spec';
import { toPrinter, type ObjectPrinter } from '../rollout/print';
import { resolveTargets, type Resolved } from '../rollout/target';

export const setEnvCommand: CommandSpec = {
  path: ['set', 'env'],
  use: 'env RESOURCE/NAME KEY_1=VAL_1 ... KEY_N=VAL_N',
  short: 'Update environment variables on a pod template',
  long: `Update environment variables on a pod template.

 List environment variable definitions in one or more pods, pod templates. Add, update, or remove container environment variable definitions in one or more pod templates (within replication controllers or deployment configurations). View or modify the environment variable definitions on all containers in the specified pods or pod templates, or just those that match a wildcard.

 If "--env -" is passed, environment variables can be read from STDIN using the standard env syntax.

 Possible resources include (case insensitive):

        pod (po), replicationcontroller (rc), deployment (deploy), daemonset (ds), statefulset (sts), cronjob (cj), replicaset (rs)`,
  example: `  # Update deployment 'registry' with a new environment variable
  kubectl set env deployment/registry STORAGE_DIR=/local
  
  # List the environment variables defined on a deployments 'sample-build'
  kubectl set env deployment/sample-build --list
  
  # List the environment variables defined on all pods
  kubectl set env pods --all --list
  
  # Output modified deployment in YAML, and does not alter the object on the server
  kubectl set env deployment/sample-build STORAGE_DIR=/data -o yaml
  
  # Update all containers in all replication controllers in the project to have ENV=prod
  kubectl set env rc --all ENV=prod
  
  # Import environment from a secret
  kubectl set env --from=secret/mysecret deployment/myapp
  
  # Import environment from a config map with a prefix
  kubectl set env --from=configmap/myconfigmap --prefix=MYSQL_ deployment/myapp
  
  # Import specific keys from a config map
  kubectl set env --keys=my-example-key --from=configmap/myconfigmap deployment/myapp
  
  # Remove the environment variable ENV from container 'c1' in all deployment configs
  kubectl set env deployments --all --containers="c1" ENV-
  
  # Remove the environment variable ENV from a deployment definition on disk and
  # update the deployment config on the server
  kubectl set env -f deploy.json ENV-
  
  # Set some of the local shell environment into a deployment config on the server
  env | grep RAILS_ | kubectl set env -e - deployment/registry`,
  flags: [
    { name: 'all', type: 'bool', default: false, usage: 'If true, select all resources in the namespace of the specified resource types' },
    { name: 'containers', shorthand: 'c', type: 'string', default: '*', usage: 'The names of containers in the selected pod templates to change - may use wildcards' },
    dryRunFlag,
    { name: 'env', shorthand: 'e', type: 'stringArray', default: [], usage: 'Specify a key-value pair for an environment variable to set into each container.' },
    fieldManagerFlag('kubectl-set'),
    ...filenameFlags('the resource to update the env'),
    { name: 'from', type: 'string', default: '', usage: 'The name of a resource from which to inject environment variables' },
    { name: 'keys', type: 'stringSlice', default: [], usage: 'Comma-separated list of keys to import from specified resource' },
    {
      name: 'list',
      type: 'bool',
      default: false,
      usage: 'If true, display the environment and any changes in the standard format. this flag will removed when we have kubectl view env.',
    },
    { name: 'local', type: 'bool', default: false, usage: 'If true, set env will NOT contact api-server but run locally.' },
    { name: 'overwrite', type: 'bool', default: true, usage: 'If true, allow environment to be overwritten, otherwise reject updates that overwrite existing environment.' },
    { name: 'prefix', type: 'string', default: '', usage: 'Prefix to append to variable names' },
    { name: 'resolve', type: 'bool', default: false, usage: 'If true, show secret or configmap references when listing variables' },
    selectorFlag,
    ...printFlags,
  ],
  run(env, args, flags, io) {
    const all = boolFlag(flags, 'all');
    const selector = stringFlag(flags, 'selector');
    const list = boolFlag(flags, 'list');
    const from = stringFlag(flags, 'from');
    const keys = stringListFlag(flags, 'keys');
    const containerSelector = flags.get('containers') === undefined ? '*' : stringFlag(flags, 'containers');
    const overwrite = flags.get('overwrite') !== false;
    const local = boolFlag(flags, 'local');
    let dryRun: DryRun;
    let printer: ObjectPrinter;
    let resources: string[];
    let envArgs: string[];
    // Complete, then Validate.
    try {
      if (all && selector) throw new Error('cannot set --all and --selector at the same time');
      const split = splitEnvironmentFromResources(args);
      if (!split) throw new Error(`all resources must be specified before environment changes: ${args.join(' ')}`);
      ({ resources, envArgs } = split);
      dryRun = dryRunStrategy(flags);
      printer = toPrinter(io, flags, 'env updated', dryRun);
      if (local && dryRun === DryRun.Server) throw new Error('cannot specify --local and --dry-run=server - did you mean --dry-run=client?');
      if (stringListFlag(flags, 'filename').length === 0 && resources.length < 1) {
        throw new Error('one or more resources must be specified as <resource> <name> or <resource>/<name>');
      }
      if (list && stringFlag(flags, 'output')) throw new Error('--list and --output may not be specified together');
      if (keys.length > 0 && !from) throw new Error('when specifying --keys, a configmap or secret must be provided with --from');
    } catch (err) {
      return checkErr(io, err);
    }

    // RunEnv.
    let envVars: EnvVar[];
    let remove: string[];
    let resolved: Resolved;
    try {
      ({ env: envVars, remove } = parseEnv([...stringListFlag(flags, 'env'), ...envArgs], env.stdin));
      if (from) envVars.push(...envFrom(env, from, keys, { all, selector }, io));
      const prefix = stringFlag(flags, 'prefix');
      if (prefix) envVars = envVars.map((e) => ({ ...e, name: `${prefix}${e.name}` }));
      resolved = resolveTargets(env, local ? [] : resources, { allowEmptySelector: all, all, selector, filenames: stringListFlag(flags, 'filename'), local });
      if (resolved.errors.length > 0) throw new AggregateError(resolved.errors);
    } catch (err) {
      return checkErr(io, err);
    }

    const patches = resolved.targets.map((t) =>
      calculatePatch(t, (obj) => {
        const spec = podSpecOf(obj);
        const containers = [...selectContainers(spec.containers, containerSelector), ...selectContainers(spec.initContainers, containerSelector)];
        const objName = obj.metadata.name ?? '';
        if (containers.length === 0) {
          io.stderr(`Warning: ${obj.kind}/${objName} does not have any containers matching ${JSON.stringify(containerSelector)}`);
          return;
        }
        let resolutionErrors = false;
        for (const c of containers) {
          if (!overwrite) validateNoOverwrites(c.env ?? [], envVars);
          c.env = updateEnv(c.env ?? [], envVars, remove);
          if (list) resolutionErrors = listEnv(env, io, obj, c, boolFlag(flags, 'resolve')) || resolutionErrors;
        }
        if (resolutionErrors) throw new Error('failed to retrieve valueFrom references');
      }),
    );
    if (list) return 0;

    const allErrs: unknown[] = [];
    const fieldManager = stringFlag(flags, 'field-manager') || 'kubectl-set';
    for (const p of patches) {
      const { rt, name, namespace } = p.target;
      if (p.err !== undefined) {
        allErrs.push(new Error(`error: ${rt.resource}/${name} ${messageOf(p.err)}\n`));
        continue;
      }
      if (isEmptyPatch(p.patch)) continue;
      if (local || dryRun === DryRun.Client) {
        printer.print(rt, p.after!);
        continue;
      }
      let actual: KubeObject;
      try {
        actual = env.client
          .resource({ group: rt.group, version: rt.version, resource: rt.resource })
          .patch(name, PatchType.StrategicMergePatch, p.patch, { namespace, fieldManager, dryRun: dryRun === DryRun.Server });
      } catch (err) {
        allErrs.push(new Error(`failed to patch env update to pod template: ${messageOf(err)}`));
        continue;
      }
      if (envVars.length === 0 && envArgs.length === 0) return checkErr(io, new Error('at least one environment variable must be provided'));
      printer.print(rt, actual);
    }
    return allErrs.length > 0 ? checkErr(io, new AggregateError(allErrs)) : 0;
  },
};

/** envutil.SplitEnvironmentFromResources: resources first, then KEY=VALUE / KEY- arguments. */
export function splitEnvironmentFromResources(args: readonly string[]): { resources: string[]; envArgs: string[] } | undefined {
  const resources: string[] = [];
  const envArgs: string[] = [];
  let first = true;
  for (const s of args) {
    const isEnv = /^.+=/s.test(s) || s.endsWith('-');
    if (isEnv) {
      first = false;
      envArgs.push(s);
    } else if (first) {
      resources.push(s);
    } else {
      return undefined;
    }
  }
  return { resources, envArgs };
}

/** envutil.ParseEnv: variables to set, names to remove ("-" reads KEY=VALUE lines from stdin). */
export function parseEnv(spec: readonly string[], stdin: string | undefined): { env: EnvVar[]; remove: string[] } {
  const env: EnvVar[] = [];
  const exists = new Set<string>();
  const remove: string[] = [];
  for (const envSpec of spec) {
    if (envSpec === '-') {
      if (stdin === undefined) throw new Error("when '-' is used, STDIN must be open");
      env.push(...readEnv(stdin));
    } else if (envSpec.includes('=')) {
      const i = envSpec.indexOf('=');
      const name = envSpec.slice(0, i);
      const errs = isEnvVarName(name);
      if (errs.length > 0) throw new Error(`${JSON.stringify(name)} is not a valid key name: ${errs.join(';')}`);
      exists.add(name);
      env.push({ name, value: envSpec.slice(i + 1) });
    } else if (envSpec.endsWith('-')) {
      remove.push(envSpec.slice(0, -1));
    } else {
      throw new Error(`unknown environment variable: ${envSpec}`);
    }
  }
  if (remove.some((r) => exists.has(r))) throw new Error('can not both modify and remove the same environment variable in the same command');
  return { env, remove };
}

function readEnv(text: string): EnvVar[] {
  const env: EnvVar[] = [];
  for (let line of text.split('\n')) {
    const hash = line.indexOf('#');
    if (hash !== -1) line = line.slice(0, hash);
    if (!line.includes('=')) continue;
    const i = line.indexOf('=');
    env.push({ name: line.slice(0, i), value: line.slice(i + 1) });
  }
  return env;
}

/** --from: one valueFrom reference per key of the ConfigMap or Secret (keys in sorted order). */
function envFrom(env: KubectlEnv, from: string, keys: string[], options: { all: boolean; selector: string }, io: CommandIO): EnvVar[] {
  const resolved = resolveTargets(env, [from], { allowEmptySelector: options.all, all: options.all, selector: options.selector });
  if (resolved.errors.length > 0) throw new AggregateError(resolved.errors);
  const out: EnvVar[] = [];
  for (const { object } of resolved.targets) {
    const name = object.metadata.name ?? '';
    const selected = (data: Record<string, string> | undefined) => Object.keys(data ?? {}).sort().filter((k) => keys.length === 0 || keys.includes(k));
    if (object.kind === 'Secret' && object.apiVersion === 'v1') {
      for (const key of selected((object as Secret & KubeObject).data)) out.push({ name: keyToEnvName(key, io), valueFrom: { secretKeyRef: { name, key } } });
    } else if (object.kind === 'ConfigMap' && object.apiVersion === 'v1') {
      for (const key of selected((object as ConfigMap & KubeObject).data)) out.push({ name: keyToEnvName(key, io), valueFrom: { configMapKeyRef: { name, key } } });
    } else {
      throw new Error('unsupported resource specified in --from');
    }
  }
  return out;
}

function keyToEnvName(key: string, io: CommandIO): string {
  const envName = key.replace(/[^a-zA-Z0-9_]/g, '_').toUpperCase();
  if (envName !== key) io.stderr(`Warning: key ${key} transferred to ${envName}`);
  return envName;
}

function selectContainers(containers: Container[] | undefined, spec: string): Container[] {
  return (containers ?? []).filter((c) => selectString(c.name, spec));
}

/** kubectl's wildcard match, quirks included (its index arithmetic compares a relative position to an absolute one). */
export function selectString(s: string, spec: string): boolean {
  if (spec === '*') return true;
  if (!spec.includes('*')) return s === spec;
  let pos = 0;
  const parts = spec.split('*');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.length === 0) continue;
    const next = s.slice(pos).indexOf(part);
    if (next < pos || (i === 0 && pos !== 0) || (i === parts.length - 1 && s.length !== part.length + next)) return false;
    pos = next;
  }
  return true;
}

function validateNoOverwrites(existing: EnvVar[], env: EnvVar[]): void {
  for (const e of env) {
    const current = existing.find((x) => x.name === e.name);
    if (current && (current.value ?? '') !== (e.value ?? '')) throw new Error(`'${current.name}' already has a value (${current.value ?? ''}), and --overwrite is false`);
  }
}

/** updateEnv: a set variable replaces every one of its name in place (or is appended); removals win. */
export function updateEnv(existing: EnvVar[], env: EnvVar[], remove: string[]): EnvVar[] {
  const out: EnvVar[] = [];
  const covered = new Set(remove);
  for (const e of existing) {
    if (covered.has(e.name)) continue;
    const newer = env.find((x) => x.name === e.name);
    if (newer) {
      covered.add(e.name);
      out.push(newer);
      continue;
    }
    out.push(e);
  }
  for (const e of env) {
    if (covered.has(e.name)) continue;
    covered.add(e.name);
    out.push(e);
  }
  return out;
}

/** --list: `# Deployment nginx, container nginx` then each variable; returns whether a reference failed to resolve. */
function listEnv(env: KubectlEnv, io: CommandIO, obj: KubeObject, c: Container, resolve: boolean): boolean {
  const resolveErrors = new Map<string, string[]>();
  const store = new Map<string, KubeObject | Error>();
  io.stdout(`# ${obj.kind} ${obj.metadata.name ?? ''}, container ${c.name}`);
  for (const e of c.env ?? []) {
    if (!e.valueFrom) {
      for (const line of `${e.name}=${e.value ?? ''}`.split('\n')) io.stdout(line);
      continue;
    }
    if (!resolve) {
      io.stdout(`# ${e.name} from ${envVarRefString(e.valueFrom)}`);
      continue;
    }
    try {
      const value = envVarRefValue(env, store, e.valueFrom, obj, c);
      for (const line of `${e.name}=${value}`.split('\n')) io.stdout(line);
    } catch (err) {
      io.stdout(`# ${e.name} from ${envVarRefString(e.valueFrom)}`);
      const msg = messageOf(err);
      resolveErrors.set(msg, [...(resolveErrors.get(msg) ?? []), e.name]);
    }
  }
  const errs = [...resolveErrors].map(([msg, vars]) => `error retrieving reference for ${[...vars].sort().join(', ')}: ${msg}`).sort();
  for (const e of errs) io.stderr(e);
  return errs.length > 0;
}

/** envutil.GetEnvVarRefString. */
function envVarRefString(from: EnvVarSource): string {
  if (from.configMapKeyRef) return `configmap ${from.configMapKeyRef.name ?? ''}, key ${from.configMapKeyRef.key}`;
  if (from.secretKeyRef) return `secret ${from.secretKeyRef.name ?? ''}, key ${from.secretKeyRef.key}`;
  if (from.fieldRef) return `field path ${from.fieldRef.fieldPath}`;
  if (from.resourceFieldRef) return `resource field ${from.resourceFieldRef.containerName ? `${from.resourceFieldRef.containerName}/` : ''}${from.resourceFieldRef.resource}`;
  return 'invalid valueFrom';
}

/** envutil.GetEnvVarRefValue: the value a reference points at, read as the current user. */
function envVarRefValue(env: KubectlEnv, store: Map<string, KubeObject | Error>, from: EnvVarSource, obj: KubeObject, c: Container): string {
  const fetch = (kind: 'secrets' | 'configmaps', name: string): KubeObject => {
    const key = `${kind}/${name}`;
    if (!store.has(key)) {
      try {
        store.set(key, kind === 'secrets' ? env.client.secrets.get(name, { namespace: env.namespace }) : env.client.configMaps.get(name, { namespace: env.namespace }));
      } catch (err) {
        throw err instanceof Error ? err : new Error(String(err));
      }
    }
    return store.get(key) as KubeObject;
  };
  if (from.secretKeyRef) {
    const secret = fetch('secrets', from.secretKeyRef.name ?? '') as Secret & KubeObject;
    const data = secret.data?.[from.secretKeyRef.key];
    if (data === undefined) throw new Error(`key ${from.secretKeyRef.key} not found in secret ${from.secretKeyRef.name ?? ''}`);
    return decodeBase64(data);
  }
  if (from.configMapKeyRef) {
    const cm = fetch('configmaps', from.configMapKeyRef.name ?? '') as ConfigMap & KubeObject;
    const data = cm.data?.[from.configMapKeyRef.key];
    if (data === undefined) throw new Error(`key ${from.configMapKeyRef.key} not found in config map ${from.configMapKeyRef.name ?? ''}`);
    return data;
  }
  if (from.fieldRef) return fieldPathValue(obj, from.fieldRef.fieldPath);
  if (from.resourceFieldRef) return containerResourceValue(from.resourceFieldRef, c);
  throw new Error('invalid valueFrom');
}

function decodeBase64(data: string): string {
  const bin = atob(data);
  return new TextDecoder().decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
}

/** extractFieldPathAsString (of the object being listed, as kubectl reads it). */
function fieldPathValue(obj: KubeObject, fieldPath: string): string {
  const sub = /^(.+)\['(.*)'\]$/s.exec(fieldPath);
  if (sub) {
    const [, path, subscript] = sub;
    if (path === 'metadata.annotations') {
      const errs = isQualifiedName(subscript.toLowerCase());
      if (errs.length) throw new Error(`invalid key subscript in ${fieldPath}: ${errs.join(';')}`);
      return obj.metadata.annotations?.[subscript] ?? '';
    }
    if (path === 'metadata.labels') {
      const errs = isQualifiedName(subscript);
      if (errs.length) throw new Error(`invalid key subscript in ${fieldPath}: ${errs.join(';')}`);
      return obj.metadata.labels?.[subscript] ?? '';
    }
    throw new Error(`fieldPath ${JSON.stringify(fieldPath)} does not support subscript`);
  }
  const formatMap = (m: Record<string, string> | undefined) =>
    Object.keys(m ?? {})
      .sort()
      .map((k) => `${k}=${JSON.stringify(m![k])}`)
      .join('\n');
  switch (fieldPath) {
    case 'metadata.annotations':
      return formatMap(obj.metadata.annotations);
    case 'metadata.labels':
      return formatMap(obj.metadata.labels);
    case 'metadata.name':
      return obj.metadata.name ?? '';
    case 'metadata.namespace':
      return obj.metadata.namespace ?? '';
    case 'metadata.uid':
      return obj.metadata.uid ?? '';
    default:
      throw new Error(`unsupported fieldPath: ${fieldPath}`);
  }
}

/** extractContainerResourceValue: the container's request or limit in units of the divisor, rounded up. */
function containerResourceValue(fs: { resource: string; divisor?: string | number }, c: Container): string {
  const divisor = fs.divisor === undefined || String(fs.divisor) === '0' ? parseQuantity('1') : parseQuantity(String(fs.divisor));
  const dot = fs.resource.indexOf('.');
  const source = dot < 0 ? '' : fs.resource.slice(0, dot);
  const name = dot < 0 ? '' : fs.resource.slice(dot + 1);
  const known = ['cpu', 'memory', 'ephemeral-storage'].includes(name) || name.startsWith('hugepages-');
  if ((source !== 'limits' && source !== 'requests') || !known) throw new Error(`Unsupported container resource : ${fs.resource}`);
  const list = source === 'limits' ? c.resources?.limits : c.resources?.requests;
  const raw = list?.[name];
  const q = parseQuantity(raw === undefined ? '0' : String(raw));
  if (name === 'cpu') return String(Math.ceil(toMillis(q) / toMillis(divisor)));
  return String(Math.ceil(toValue(q) / toValue(divisor)));
}
