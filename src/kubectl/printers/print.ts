// The -o/--output printers every kubectl command shares (cli-runtime PrintFlags.ToPrinter and kubectl get's
// PrintFlags): json, yaml, name, jsonpath=…, jsonpath-as-json=…, custom-columns=…. The human-readable tables
// (default and -o wide) are the server's Tables laid out by table-printer.ts; get.ts drives those.
//
//   // kubectl create deployment web --image=nginx --dry-run=client -o yaml
//   printObjects(io, [deployment], { output: 'yaml' });
//   // kubectl apply -f x.yaml -o name   →  deployment.apps/web
//   printObjects(io, objects, { output: 'name' });
//   // kubectl get pods -o json (one List, as kubectl composes it)
//   printObjects(io, pods, { output: 'json', asList: true });
//
// printerFor throws a CommandError with kubectl's texts for an unknown or incomplete format, e.g.
// `unable to match a printer suitable for the output format "foo", allowed formats are: …`.
import { goJson } from '../../control-plane/apiserver/printers/go-json';
import type { CommandIO } from '../cli/command';
import type { KubeObject } from '../../shared/api/types';
import { CommandError } from '../resource-builder';
import { newCustomColumnsPrinter } from './custom-columns';
import { newJsonPathPrinter } from './jsonpath';
import { LineWriter, newTabWriter, type TabWriter } from './tabwriter';
import { kubectlYaml } from './yaml';

export interface OutputOptions {
  /** The -o value: json, yaml, name, jsonpath=…, jsonpath-as-json=…, custom-columns=…, … */
  output: string;
  /** --template (for -o jsonpath without "=…"). */
  template?: string;
  /** --no-headers (custom-columns). */
  noHeaders?: boolean;
  /** --show-managed-fields (json/yaml keep metadata.managedFields). */
  showManagedFields?: boolean;
  /** --allow-missing-template-keys (jsonpath; default true). */
  allowMissingTemplateKeys?: boolean;
  /** The name printer's operation: "created" → "deployment.apps/web created". */
  operation?: string;
}

/** A printer of one object (or a List of them) to a text stream. */
export interface ObjectPrinter {
  printObj(obj: KubeObject, out: (text: string) => void): void;
  /** Ends the output (custom-columns flushes its tabwriter). */
  flush?(out: (text: string) => void): void;
}

/** The formats kubectl get lists in its "allowed formats" message, sorted. */
export const getAllowedFormats = [
  'custom-columns',
  'custom-columns-file',
  'go-template',
  'go-template-file',
  'json',
  'jsonpath',
  'jsonpath-as-json',
  'jsonpath-file',
  'name',
  'template',
  'templatefile',
  'wide',
  'yaml',
];

const jsonPathFormats = ['jsonpath', 'jsonpath-file', 'jsonpath-as-json'];
const templateFormats = ['go-template', 'go-template-file', 'template', 'templatefile'];
const columnsFormats = ['custom-columns', 'custom-columns-file'];

/** Splits "jsonpath={.x}" into format and template (the template may also come from --template). */
function splitFormat(output: string, formats: string[], template: string | undefined): { format: string; value: string } {
  if (template) return { format: output, value: template };
  for (const f of formats) if (output.startsWith(`${f}=`)) return { format: f, value: output.slice(f.length + 1) };
  return { format: output, value: '' };
}

/** OmitManagedFieldsPrinter: metadata.managedFields dropped from the object and from a List's items. */
export function omitManagedFields(obj: KubeObject): KubeObject {
  const strip = (o: KubeObject): KubeObject => {
    if (!o?.metadata?.managedFields) return o;
    const { managedFields: _omit, ...metadata } = o.metadata;
    return { ...o, metadata };
  };
  const items = (obj as { items?: unknown }).items;
  if (Array.isArray(items)) return { ...strip(obj), items: items.map((i) => strip(i as KubeObject)) } as KubeObject;
  return strip(obj);
}

/** The name printer's line for one object: "pod/web", "deployment.apps/web created". */
export function nameLine(obj: KubeObject, operation?: string): string {
  const apiVersion = obj.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
  const kind = obj.kind ?? '';
  if (!kind) throw new CommandError(`missing kind for resource with name ${obj.metadata?.name ?? '<unknown>'}`);
  const name = obj.metadata?.name || '<unknown>';
  const op = operation ? ` ${operation}` : '';
  return group ? `${kind.toLowerCase()}.${group}/${name}${op}` : `${kind.toLowerCase()}/${name}${op}`;
}

/**
 * A printer for a non-table -o format, or undefined for the human-readable ones ("" and "wide"). Throws kubectl's
 * errors for unknown formats and missing templates.
 */
export function printerFor(options: OutputOptions, allowedFormats: string[] = getAllowedFormats): ObjectPrinter | undefined {
  const output = options.output;
  if (output === '' || output === 'wide') {
    if (options.template) throw new CommandError('go-template output is not supported in kubeplay; use -o jsonpath');
    return undefined;
  }
  const lower = output.toLowerCase();
  if (lower === 'json' || lower === 'yaml') {
    let count = 0;
    return {
      printObj(obj, out) {
        const o = options.showManagedFields ? obj : omitManagedFields(obj);
        if (lower === 'json') {
          out(`${goJson(o, '    ')}\n`);
          return;
        }
        // Several objects from one printer (a watch) are separate YAML documents.
        if (count++ > 0) out('---\n');
        out(kubectlYaml(o));
      },
    };
  }
  if (output === 'name') {
    return {
      printObj(obj, out) {
        const items = (obj as { items?: unknown }).items;
        const objects = Array.isArray(items) ? (items as KubeObject[]) : [obj];
        for (const o of objects) out(`${nameLine(o, options.operation)}\n`);
      },
    };
  }

  const jp = splitFormat(output, jsonPathFormats, options.template);
  if (jsonPathFormats.includes(jp.format)) {
    if (!jp.value) throw new CommandError('template format specified but no template given');
    if (jp.format === 'jsonpath-file') throw new CommandError(`error reading --template ${jp.value}, open ${jp.value}: no such file or directory`);
    const printer = newJsonPathPrinter(jp.value, { allowMissingKeys: options.allowMissingTemplateKeys ?? true, asJson: jp.format === 'jsonpath-as-json' });
    return { printObj: (obj, out) => out(printer.print(obj)) };
  }
  const tpl = splitFormat(output, templateFormats, options.template);
  if (templateFormats.includes(tpl.format)) {
    if (!tpl.value) throw new CommandError('template format specified but no template given');
    throw new CommandError(`${tpl.format} output is not supported in kubeplay; use -o jsonpath=… or -o custom-columns=…`);
  }
  const cc = splitFormat(output, columnsFormats, options.template);
  if (columnsFormats.includes(cc.format)) {
    if (!cc.value) throw new CommandError('custom-columns format specified but no custom columns given');
    if (cc.format === 'custom-columns-file') throw new CommandError(`error reading template ${cc.value}, open ${cc.value}: no such file or directory\n`);
    const printer = newCustomColumnsPrinter(cc.value, { noHeaders: options.noHeaders });
    let w: TabWriter | undefined;
    let sink: (text: string) => void = () => {};
    return {
      printObj(obj, out) {
        sink = out;
        w ??= newTabWriter((text) => sink(text));
        printer.print(obj, w);
        w.flush();
      },
      flush(out) {
        sink = out;
        w?.flush();
      },
    };
  }
  throw new CommandError(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: ${[...allowedFormats].sort().join(',')}`);
}

/** kubectl's List wrapper for several objects: apiVersion v1, kind List, metadata.resourceVersion "". */
export function asList(objects: KubeObject[]): KubeObject {
  return { apiVersion: 'v1', items: objects, kind: 'List', metadata: { resourceVersion: '' } } as unknown as KubeObject;
}

/**
 * Prints objects with a non-table -o format to io.stdout, one call per line. With asList they are printed as one
 * List (as kubectl get prints several objects); otherwise each on its own (YAML documents separated by ---).
 */
export function printObjects(io: CommandIO, objects: KubeObject[], options: OutputOptions & { asList?: boolean }): void {
  const printer = printerFor(options);
  if (!printer) throw new CommandError(`printObjects prints -o json|yaml|name|jsonpath|custom-columns, not ${JSON.stringify(options.output)}`);
  const lines = new LineWriter((line) => io.stdout(line));
  const out = (text: string): void => lines.write(text);
  if (options.asList) printer.printObj(asList(objects), out);
  else for (const obj of objects) printer.printObj(obj, out);
  printer.flush?.(out);
  lines.close();
}
