// kubectl taint NODE NAME KEY=VALUE:EFFECT… | KEY:EFFECT- | KEY- (k8s.io/kubectl/pkg/cmd/taint, v1.32): adds,
// overwrites (--overwrite) or removes taints on nodes named, selected (-l) or all (--all), with a strategic merge
// patch of spec.taints (field manager "kubectl-taint"). Prints `node/node-1 tainted` (`untainted`, `modified`).
import type { Node, Taint } from 'kubernetes-types/core/v1';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import { isQualifiedName, isValidLabelValue } from '../../shared/lib/validation';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, clientFor, CommandError, mappingFor } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, guarded, ObjectPrinter, stringFlag, UsageError, validationDirective, visitErrors } from './create-common';

export const taintCommand: CommandSpec = {
  path: ["taint"],
  use: "taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N",
  short: "Update the taints on one or more nodes",
  long: "Update the taints on one or more nodes.\n\n  *  A taint consists of a key, value, and effect. As an argument here, it is expressed as key=value:effect.\n  *  The key must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 253 characters.\n  *  Optionally, the key can begin with a DNS subdomain prefix and a single '/', like example.com/my-app.\n  *  The value is optional. If given, it must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 63 characters.\n  *  The effect must be NoSchedule, PreferNoSchedule or NoExecute.\n  *  Currently taint can only apply to node.",
  example: "  # Update node 'foo' with a taint with key 'dedicated' and value 'special-user' and effect 'NoSchedule'\n  # If a taint with that key and effect already exists, its value is replaced as specified\n  kubectl taint nodes foo dedicated=special-user:NoSchedule\n  \n  # Remove from node 'foo' the taint with key 'dedicated' and effect 'NoSchedule' if one exists\n  kubectl taint nodes foo dedicated:NoSchedule-\n  \n  # Remove from node 'foo' all the taints with key 'dedicated'\n  kubectl taint nodes foo dedicated-\n  \n  # Add a taint with key 'dedicated' on nodes having label myLabel=X\n  kubectl taint node -l myLabel=X  dedicated=foo:PreferNoSchedule\n  \n  # Add to node 'foo' a taint with key 'bar' and no value\n  kubectl taint nodes foo bar:NoSchedule",
  flags: [
    { name: "all", type: 'bool', default: false, usage: "Select all nodes in the cluster" },
    { name: "allow-missing-template-keys", type: 'bool', default: true, usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-manager", type: 'string', default: "kubectl-taint", usage: "Name of the manager used to track field ownership." },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "overwrite", type: 'bool', default: false, usage: "If true, allow taints to be overwritten, otherwise reject taint updates that overwrite existing taints." },
    { name: "selector", shorthand: "l", type: 'string', default: "", usage: "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints." },
    { name: "show-managed-fields", type: 'bool', default: false, usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "validate", type: 'string', default: "strict", noOptDefault: 'strict', usage: "Must be one of: strict (or true), warn, ignore (or false). \"true\" or \"strict\" will use a schema to validate the input and fail the request if invalid. It will perform server side validation if ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable client-side validation if not. \"warn\" will warn about unknown or duplicate fields without blocking the request if server-side field validation is enabled on the API server, and behave as \"ignore\" otherwise. \"false\" or \"ignore\" will not perform any schema validation, silently dropping any unknown or duplicate fields." },
  ],
  run: (env, args, flags, io) => guarded(io, 'taint', () => runTaint(env, args, flags, io)),
};

const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** corev1.Taint.ToString(). */
export function taintString(t: Pick<Taint, 'key' | 'value' | 'effect'>): string {
  if (!t.effect) return t.value ? `${t.key}=${t.value}:` : t.key;
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

/** parseTaint: KEY[=VALUE]:EFFECT, or a bare KEY (only for removal). */
function parseTaint(spec: string): Taint {
  const parts = spec.split(':');
  let key: string;
  let value = '';
  let effect = '';
  if (parts.length === 1) {
    key = parts[0];
  } else if (parts.length === 2) {
    effect = parts[1];
    if (!effects.includes(effect)) throw new CommandError(`invalid taint effect: ${effect}, unsupported taint effect`);
    const kv = parts[0].split('=');
    if (kv.length > 2) throw new CommandError(`invalid taint spec: ${spec}`);
    key = kv[0];
    if (kv.length === 2) {
      value = kv[1];
      const errs = isValidLabelValue(value);
      if (errs.length > 0) throw new CommandError(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
    }
  } else {
    throw new CommandError(`invalid taint spec: ${spec}`);
  }
  const errs = isQualifiedName(key);
  if (errs.length > 0) throw new CommandError(`invalid taint spec: ${spec}, ${errs.join('; ')}`);
  return { key, ...(value ? { value } : {}), effect } as Taint;
}

/** parseTaints: the taints to add and to remove (KEY[:EFFECT]-). */
function parseTaints(specs: string[]): { add: Taint[]; remove: Taint[] } {
  const add: Taint[] = [];
  const remove: Taint[] = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    if (spec.endsWith('-')) {
      const t = parseTaint(spec.slice(0, -1));
      remove.push({ key: t.key, effect: t.effect } as Taint);
      continue;
    }
    const t = parseTaint(spec);
    if (!t.effect) throw new CommandError(`invalid taint spec: ${spec}`);
    const id = `${t.effect}\u0000${t.key}`;
    if (seen.has(id)) throw new CommandError(`duplicated taints with the same key and effect: {${t.key} ${t.value ?? ''} ${t.effect} <nil>}`);
    seen.add(id);
    add.push(t);
  }
  return { add, remove };
}

const matchTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;

/** reorganizeTaints: the new list and the operation word, or the `taint "x" not found` errors. */
export function reorganizeTaints(old: Taint[], overwrite: boolean, add: Taint[], remove: Taint[]): { operation: string; taints: Taint[] } {
  let taints = [...add];
  for (const o of old) if (!taints.some((t) => matchTaint(t, o))) taints.push(o);
  const added = old.length !== taints.length;
  const errs: Error[] = [];
  let removed = false;
  for (const r of remove) {
    const before = taints.length;
    taints = taints.filter((t) => (r.effect ? !matchTaint(r, t) : t.key !== r.key));
    removed = taints.length !== before;
    if (!removed) errs.push(new CommandError(`taint ${JSON.stringify(taintString(r))} not found`));
  }
  if (errs.length > 0) throw errs;
  const operation = (added && removed) || overwrite ? 'modified' : added ? 'tainted' : 'untainted';
  return { operation, taints };
}

function runTaint(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const dryRun = dryRunStrategy(flags);
  const validation = validationDirective(flags);
  const resources: string[] = [];
  const taintArgs: string[] = [];
  let met = false;
  for (const s of args) {
    const isTaint = s.includes('=') || s.includes(':') || s.endsWith('-');
    if (isTaint) {
      met = true;
      taintArgs.push(s);
    } else if (!met) resources.push(s);
    else throw new CommandError(`all resources must be specified before taint changes: ${s}`);
  }
  const output = stringFlag(flags, 'output');
  ObjectPrinter.create(output, 'tainted');
  if (resources.length < 1) throw new CommandError('one or more resources must be specified as <resource> <name>');
  if (taintArgs.length < 1) throw new CommandError('at least one taint update is required');
  let parsed: { add: Taint[]; remove: Taint[] };
  try {
    parsed = parseTaints(taintArgs);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  // Validate
  const resourceType = resources[0].toLowerCase();
  if (mappingFor(env.registry, resourceType).kind !== 'Node') throw new CommandError(`invalid resource type ${resourceType}, only node types are supported`);
  const conflicts = parsed.remove.filter((r) => parsed.add.some((a) => a.key === r.key && (!r.effect || a.effect === r.effect))).map((r) => `${r.key}=${r.effect}`);
  if (conflicts.length > 0) throw new CommandError(`can not both modify and remove the following taint(s) in the same command: ${conflicts.join(', ')}`);
  const all = boolFlag(flags, 'all');
  const selector = stringFlag(flags, 'selector');
  if (all && selector) throw new CommandError("setting 'all' parameter with a non empty selector is prohibited");
  if (!all && !selector && resources.length < 2) throw new CommandError("at least one resource name must be specified since 'all' parameter is not set");

  const built =
    all || selector
      ? buildResources(env, { args: ['nodes'], labelSelector: selector || undefined, all })
      : buildResources(env, { args: ['nodes', ...resources.slice(1)], requireObject: true });
  if (built.error) throw built.error;
  const errors: unknown[] = [...built.errors];
  for (const info of built.infos) {
    try {
      const node = info.object as unknown as Node;
      const old = node.spec?.taints ?? [];
      if (!boolFlag(flags, 'overwrite')) {
        const exists = parsed.add.filter((t) => old.some((o) => o.key === t.key && o.effect === t.effect)).map((t) => t.key);
        if (exists.length > 0) throw new CommandError(`node ${info.name} already has ${exists.join(',')} taint(s) with same effect(s) and --overwrite is false`);
      }
      const { operation, taints } = reorganizeTaints(old, boolFlag(flags, 'overwrite'), parsed.add, parsed.remove);
      const printer = ObjectPrinter.create(output, operation);
      const patch = { spec: { taints: taints.length > 0 ? taints : null } };
      let result: KubeObject;
      if (dryRun === DryRun.Client) {
        result = { ...info.object!, spec: { ...((info.object!.spec as object) ?? {}), ...(taints.length > 0 ? { taints } : {}) } };
        if (taints.length === 0) delete (result.spec as { taints?: unknown }).taints;
      } else {
        result = clientFor(env.client, info.rt).patch(info.name, PatchType.StrategicMergePatch, patch, {
          fieldManager: stringFlag(flags, 'field-manager'),
          fieldValidation: validation,
          ...(dryRun === DryRun.Server ? { dryRun: true } : {}),
        });
      }
      printer.print(io, result);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) return checkErr(io, visitErrors(errors));
  return 0;
}
