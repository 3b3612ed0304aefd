// The shape rollout pause, resume and restart share (RunPause / RunResume / RunRestart in k8s.io/kubectl v0.32.4
// pkg/cmd/rollout): resolve the objects, let the polymorphic helper mutate each (or refuse it), send the two-way
// strategic merge patch with the command's field manager, print `<object> <operation>`, then every error.
import type { CommandIO, FlagValues, KubectlEnv } from '../cli/command';
import type { KubeObject } from '../../shared/api/types';
import { PatchType } from '../../shared/api/request';
import { AggregateError, checkErr, messageOf } from './check-err';
import { stringFlag, stringListFlag } from './flags';
import { calculatePatch, isEmptyPatch } from './patch';
import { toPrinter } from './print';
import { resolveTargets, resourceString } from './target';

export interface ObjectPatchCommand {
  /** The polymorphic helper: mutates the object or throws its refusal ("is already paused"). */
  mutate(env: KubectlEnv, obj: KubeObject): void;
  /** Printed after a successful patch. */
  operation: string;
  /** What an empty patch means: printed with this operation, or this error. */
  onEmpty: { operation: string } | { error: (name: string) => string };
}

export function runObjectPatch(command: ObjectPatchCommand, env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  if (args.length === 0 && stringListFlag(flags, 'filename').length === 0 && !stringFlag(flags, 'kustomize')) {
    return checkErr(io, new Error('required resource not specified'));
  }
  let resolved;
  try {
    toPrinter(io, flags, command.operation); // PrintFlags.ToPrinter fails early on an unknown -o
    resolved = resolveTargets(env, args, { allowEmptySelector: true, selector: stringFlag(flags, 'selector'), filenames: stringListFlag(flags, 'filename') });
  } catch (err) {
    return checkErr(io, err);
  }
  const allErrs: unknown[] = [...resolved.errors];
  const patches = resolved.targets.map((t) => calculatePatch(t, (obj) => command.mutate(env, obj)));
  if (patches.length === 0 && allErrs.length === 0) {
    io.stderr(`No resources found in ${env.namespace} namespace.`);
    return 0;
  }
  const fieldManager = stringFlag(flags, 'field-manager') || 'kubectl-rollout';
  for (const p of patches) {
    const { rt, name, namespace } = p.target;
    if (p.err !== undefined) {
      allErrs.push(new Error(`error: ${resourceString(rt)} ${JSON.stringify(name)} ${messageOf(p.err)}`));
      continue;
    }
    if (isEmptyPatch(p.patch)) {
      if ('error' in command.onEmpty) allErrs.push(new Error(command.onEmpty.error(name)));
      else toPrinter(io, flags, command.onEmpty.operation).print(rt, p.target.object);
      continue;
    }
    let obj: KubeObject;
    try {
      obj = env.client.resource({ group: rt.group, version: rt.version, resource: rt.resource }).patch(name, PatchType.StrategicMergePatch, p.patch, { namespace, fieldManager });
    } catch (err) {
      allErrs.push(new Error(`failed to patch: ${messageOf(err)}`));
      continue;
    }
    toPrinter(io, flags, command.operation).print(rt, { ...obj, apiVersion: obj.apiVersion ?? p.target.object.apiVersion, kind: obj.kind ?? rt.kind });
  }
  return allErrs.length > 0 ? checkErr(io, new AggregateError(allErrs)) : 0;
}
