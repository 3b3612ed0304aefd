// genericclioptions.PrintFlags for the mutating commands (rollout, set, edit): without -o, the name printer with
// the operation (`deployment.apps/nginx restarted`, plus ` (dry run)` / ` (server dry run)`); with -o, the shared
// printers (src/kubectl/printers/print.ts: name, json, yaml, jsonpath…).
import type { ResourceType } from '../../shared/api/resources';
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, FlagValues } from '../cli/command';
import { printerFor } from '../printers/print';
import { LineWriter } from '../printers/tabwriter';
import { DryRun } from './flags';
import { objectName } from './target';

export interface ObjectPrinter {
  print(rt: Pick<ResourceType, 'kind' | 'group'>, obj: KubeObject): void;
}

/** PrintFlags.AllowedFormats (json/yaml, name, templates, jsonpath). */
export const printFlagsAllowedFormats = ['json', 'yaml', 'name', 'go-template', 'go-template-file', 'template', 'templatefile', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file'];

/** The printer PrintFlags.ToPrinter returns; throws kubectl's error for an output format it has no printer for. */
export function toPrinter(io: CommandIO, flags: FlagValues, operation: string, dryRun: DryRun = DryRun.None): ObjectPrinter {
  const output = String(flags.get('output') ?? '');
  const op = dryRun === DryRun.Client ? `${operation} (dry run)` : dryRun === DryRun.Server ? `${operation} (server dry run)` : operation;
  if (output === '') return { print: (rt, obj) => printNameWithOperation(io, rt, obj.metadata?.name ?? '', op) };
  if (output === 'wide') throw unmatched(output);
  const printer = printerFor(
    {
      output,
      template: String(flags.get('template') ?? '') || undefined,
      showManagedFields: flags.get('show-managed-fields') === true,
      allowMissingTemplateKeys: flags.get('allow-missing-template-keys') !== false,
    },
    printFlagsAllowedFormats,
  );
  if (!printer) throw unmatched(output);
  return {
    print: (_rt, obj) => {
      const lines = new LineWriter((line) => io.stdout(line));
      printer.printObj(obj, (text) => lines.write(text));
      printer.flush?.((text) => lines.write(text));
      lines.close();
    },
  };
}

function unmatched(output: string): Error {
  return new Error(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: ${[...printFlagsAllowedFormats].sort().join(',')}`);
}

/**
 * The name printer: `<kind>[.<group>]/<name> <operation>`. An operation spanning lines (rollout history's table)
 * is printed as is after the name, one io call per line.
 */
export function printNameWithOperation(io: CommandIO, rt: Pick<ResourceType, 'kind' | 'group'>, name: string, operation: string): void {
  for (const line of `${objectName(rt, name)} ${operation}`.split('\n')) io.stdout(line);
}

/** The group and kind an object names itself by (for the name printer). */
export function kindOf(obj: KubeObject): Pick<ResourceType, 'kind' | 'group'> {
  return { kind: obj.kind, group: obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '' };
}
