// genericclioptions.RecordFlags (cli-runtime v0.32.4 pkg/genericclioptions/record_flags.go): with --record=true
// the command line is written to the object's kubernetes.io/change-cause annotation, which `rollout history`
// shows. kubectl rebuilds the line from its parsed flags: `kubectl set image deployment/nginx
// nginx=nginx:1.16.1 --record=true` (flags as --name=value after the arguments).
import type { CommandIO, CommandSpec, FlagSpec, FlagValues, KubectlEnv } from '../cli/command';
import type { KubeObject } from '../../shared/api/types';
import { changeCauseAnnotation } from './history';

export const recordFlag = {
  name: 'record',
  type: 'bool',
  default: false,
  // Deprecated: parsed, not listed in --help.
  hidden: true,
  usage:
    'Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.',
} satisfies FlagSpec;

/** pflag's notice for the deprecated flag, printed when it is used. */
export function warnRecordDeprecated(flags: FlagValues, io: CommandIO): void {
  if (flags.changed('record')) io.stderr('Flag --record has been deprecated, --record will be removed in the future');
}

/** parseCommandArguments: "kubectl" + the arguments + every flag given, as --name=value. */
export function changeCause(spec: CommandSpec, env: KubectlEnv, args: readonly string[], flags: FlagValues): string {
  let line = ['kubectl', ...spec.path, ...args].join(' ');
  for (const f of spec.flags) {
    if (!flags.changed(f.name)) continue;
    const v = flags.get(f.name);
    line += ` --${f.name}=${Array.isArray(v) ? `[${v.join(',')}]` : String(v)}`;
  }
  if (env.namespaceExplicit) line += ` --namespace=${env.namespace}`;
  return line;
}

/** ChangeCauseRecorder.Record, when --record=true. */
export function recordChangeCause(obj: KubeObject, cause: string | undefined): void {
  if (cause === undefined) return;
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [changeCauseAnnotation]: cause };
}
