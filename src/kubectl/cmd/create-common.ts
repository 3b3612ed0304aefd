// What the mutating commands (apply, create, delete, label, annotate, taint, expose, scale, autoscale) share,
// as kubectl's cmdutil does it: printing errors (CheckErr, MultipleErrors, UsageErrorf), --dry-run and
// --validate parsing, and the printers a mutation ends with (the name printer's "deployment.apps/web created",
// -o name|yaml|json).
import type { Client } from '../../control-plane/client/client';
import { isStatusError, type StatusError } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import type { FieldValidation } from '../../shared/api/request';
import { omitManagedFields, printerFor, type ObjectPrinter as SharedPrinter } from '../printers/print';
import { LineWriter } from '../printers/tabwriter';
import type { CommandIO, FlagSpec, FlagValues } from '../cli/command';
import { CommandError } from '../resource-builder';

// ------------------------------------------------------------------ errors

/** Writes a (possibly multi-line) message to stderr, one call per line. */
export function writeLines(write: (line: string) => void, text: string): void {
  const lines = text.replace(/\n$/, '').split('\n');
  for (const line of lines) write(line);
}

/** cmdutil.StandardErrorMessage, or undefined when the error is not an API error. */
function standardErrorMessage(err: unknown): string | undefined {
  if (!isStatusError(err)) return undefined;
  const refused = /^dial tcp ([^:]+:\d+): connect: connection refused$/.exec(err.message);
  if (refused) return `The connection to the server ${refused[1]} was refused - did you specify the right host or port?`;
  if (err.reason === 'Unauthorized') return `error: You must be logged in to the server (${err.message})`;
  return err.reason ? `Error from server (${err.reason}): ${err.message}` : `Error from server: ${err.message}`;
}

function messageForError(err: unknown): string {
  // An aggregate inside an aggregate prints as Go's Aggregate.Error(): "[a, b]" (just "a" for one).
  if (Array.isArray(err)) return err.length === 1 ? messageForError(err[0]) : `[${err.map(messageForError).join(', ')}]`;
  return standardErrorMessage(err) ?? (err instanceof Error ? err.message : String(err));
}

/**
 * The text cmdutil.CheckErr prints. An array is a utilerrors.Aggregate: one of one error is unwrapped (once, as
 * kubectl does); several print one per line without the `error: ` prefix (MultipleErrors). Invalid errors get
 * kubectl's `The Kind "name" is invalid: …` form.
 */
export function checkErrMessage(err: unknown): string {
  if (Array.isArray(err) && err.length === 1) err = err[0];
  if (Array.isArray(err)) return err.map(messageForError).join('\n');
  if (isStatusError(err) && err.reason === 'Invalid') return invalidMessage(err);
  const standard = standardErrorMessage(err);
  if (standard !== undefined) return standard;
  const msg = err instanceof Error ? err.message : String(err);
  return msg.startsWith('error: ') ? msg : `error: ${msg}`;
}

/** ContinueOnErrorVisitor's result: the one error itself, or an aggregate of several. */
export function visitErrors(errs: unknown[]): unknown {
  return errs.length === 1 ? errs[0] : errs;
}

function invalidMessage(err: StatusError): string {
  const status = err.status;
  const details = status.details;
  let s = 'The request is invalid';
  if (!details) return status.message ? `${s}: ${status.message}` : s;
  if (details.kind || details.name) s = `The ${details.kind ?? ''} ${JSON.stringify(details.name ?? '')} is invalid`;
  else if (status.message && !details.causes?.length) s += `: ${status.message}`;
  const causes = [...new Set((details.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`))];
  if (causes.length === 0) return s;
  if (causes.length === 1) return `${s}: ${causes[0]}`;
  return [`${s}: `, ...causes.map((c) => `* ${c}`)].join('\n');
}

/** cmdutil.CheckErr: prints the error(s) and returns kubectl's exit code 1. */
export function checkErr(io: CommandIO, err: unknown): number {
  writeLines((l) => io.stderr(l), checkErrMessage(err));
  return 1;
}

/** cmdutil.UsageErrorf: the message, then `See 'kubectl <path> -h' for help and examples`; exit 1. */
export function usageError(io: CommandIO, commandPath: string, message: string): number {
  writeLines((l) => io.stderr(l), `error: ${message}\nSee 'kubectl ${commandPath} -h' for help and examples`);
  return 1;
}

/** A usage error thrown from deep inside a command: run() prints it with usageError. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

// ------------------------------------------------------------------ flags

export const DryRun = { None: 'none', Client: 'client', Server: 'server' } as const;
export type DryRun = (typeof DryRun)[keyof typeof DryRun];

/** cmdutil.GetDryRunStrategy: none|client|server, plus the deprecated boolean forms. */
export function dryRunStrategy(flags: FlagValues): DryRun {
  const value = String(flags.get('dry-run') ?? 'none');
  switch (value) {
    case 'unchanged':
    case 'client':
    case 'true':
    case '1':
    case 't':
    case 'T':
    case 'TRUE':
    case 'True':
      return DryRun.Client;
    case 'server':
      return DryRun.Server;
    case 'none':
    case 'false':
    case '0':
    case 'f':
    case 'F':
    case 'FALSE':
    case 'False':
      return DryRun.None;
    default:
      throw new CommandError(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
  }
}

/** cmdutil.GetValidationDirective: the fieldValidation query parameter --validate sends. */
export function validationDirective(flags: FlagValues): FieldValidation {
  const value = String(flags.get('validate') ?? 'strict');
  if (['strict', 'true', '1', 't', 'T', 'TRUE', 'True'].includes(value)) return 'Strict';
  if (value === 'warn') return 'Warn';
  if (['ignore', 'false', '0', 'f', 'F', 'FALSE', 'False'].includes(value)) return 'Ignore';
  throw new CommandError(`invalid - validate option ${JSON.stringify(value)}; must be one of: strict (or true), warn, ignore (or false)`);
}

/** The name printer's suffix for a dry run. */
export function dryRunSuffix(dryRun: DryRun): string {
  return dryRun === DryRun.Client ? ' (dry run)' : dryRun === DryRun.Server ? ' (server dry run)' : '';
}

// The flags kubectl's commands share, with kubectl's help texts.
export const dryRunFlag: FlagSpec = {
  name: 'dry-run',
  type: 'string',
  default: 'none',
  noOptDefault: 'unchanged',
  usage:
    'Must be "none", "server", or "client". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource.',
};
export const outputFlag: FlagSpec = {
  name: 'output',
  shorthand: 'o',
  type: 'string',
  default: '',
  usage: 'Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).',
};
export const allowMissingTemplateKeysFlag: FlagSpec = {
  name: 'allow-missing-template-keys',
  type: 'bool',
  default: true,
  usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.',
};
export const showManagedFieldsFlag: FlagSpec = {
  name: 'show-managed-fields',
  type: 'bool',
  default: false,
  usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.',
};
export const templateFlag: FlagSpec = {
  name: 'template',
  type: 'string',
  default: '',
  usage:
    'Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview].',
};
export const validateFlag: FlagSpec = {
  name: 'validate',
  type: 'string',
  default: 'strict',
  noOptDefault: 'strict',
  usage:
    'Must be one of: strict (or true), warn, ignore (or false). "true" or "strict" will use a schema to validate the input and fail the request if invalid. It will perform server side validation if ServerSideFieldValidation is enabled on the api-server, but will fall back to less reliable client-side validation if not. "warn" will warn about unknown or duplicate fields without blocking the request if server-side field validation is enabled on the API server, and behave as "ignore" otherwise. "false" or "ignore" will not perform any schema validation, silently dropping any unknown or duplicate fields.',
};
export const saveConfigFlag: FlagSpec = {
  name: 'save-config',
  type: 'bool',
  default: false,
  usage:
    'If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future.',
};
export function fieldManagerFlag(defaultManager: string): FlagSpec {
  return { name: 'field-manager', type: 'string', default: defaultManager, usage: 'Name of the manager used to track field ownership.' };
}
export const selectorFlag: FlagSpec = {
  name: 'selector',
  shorthand: 'l',
  type: 'string',
  default: '',
  usage:
    "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.",
};
export const recursiveFlag: FlagSpec = {
  name: 'recursive',
  shorthand: 'R',
  type: 'bool',
  default: false,
  usage: 'Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.',
};
export function filenameFlag(usage: string): FlagSpec {
  return { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage };
}
export function kustomizeFlag(usage: string): FlagSpec {
  return { name: 'kustomize', shorthand: 'k', type: 'string', default: '', usage };
}

/** The print flags (PrintFlags.AddFlags) every mutating command has. */
export const printFlags: FlagSpec[] = [allowMissingTemplateKeysFlag, outputFlag, showManagedFieldsFlag, templateFlag];

/** The -f values, or [] (the flag may be absent in a hand-made FlagValues). */
export function filenames(flags: FlagValues): string[] {
  const v = flags.get('filename');
  return Array.isArray(v) ? v.map(String) : typeof v === 'string' && v ? [v] : [];
}

export function stringFlag(flags: FlagValues, name: string): string {
  const v = flags.get(name);
  return v === undefined || v === null ? '' : Array.isArray(v) ? v.join(',') : String(v);
}

export function boolFlag(flags: FlagValues, name: string): boolean {
  const v = flags.get(name);
  return v === true || v === 'true';
}

export function intFlag(flags: FlagValues, name: string, fallback: number): number {
  const v = flags.get(name);
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : fallback;
}

export function arrayFlag(flags: FlagValues, name: string): string[] {
  const v = flags.get(name);
  if (Array.isArray(v)) return v.map(String);
  return typeof v === 'string' && v !== '' ? [v] : [];
}

// ------------------------------------------------------------------ printers

const mutationFormats = ['go-template', 'go-template-file', 'json', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', 'name', 'template', 'templatefile', 'yaml'];

/**
 * PrintFlags.ToPrinter for a mutation: with no -o, the name printer with the operation ("deployment.apps/web
 * created (dry run)"); -o name prints just the name; -o yaml|json|jsonpath=… print the object (managedFields
 * omitted unless --show-managed-fields), through the shared printers of src/kubectl/printers/print.ts.
 */
export class ObjectPrinter {
  private readonly printer: SharedPrinter;

  private constructor(
    readonly format: string,
    operation: string,
    private readonly showManagedFields: boolean,
    template: string | undefined,
  ) {
    this.printer = printerFor({ output: format === '' ? 'name' : format, operation: format === '' ? operation : undefined, showManagedFields, template }, mutationFormats)!;
  }

  /** Throws kubectl's `unable to match a printer` error for an unknown -o value. */
  static create(output: string, operation: string, options: { dryRun?: DryRun; showManagedFields?: boolean; template?: string } = {}): ObjectPrinter {
    const base = output.split('=')[0].toLowerCase();
    if (base === 'wide' || base.startsWith('custom-columns')) {
      throw new CommandError(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: ${mutationFormats.join(',')}`);
    }
    return new ObjectPrinter(output, operation + dryRunSuffix(options.dryRun ?? DryRun.None), options.showManagedFields ?? false, options.template || undefined);
  }

  /** Whether the printer shows the object itself (apply's shouldPrintObject: not the name printer). */
  get printsObject(): boolean {
    return this.format !== '' && this.format !== 'name';
  }

  /**
   * Prints one object. `typed` marks an object kubectl built as a Go struct (create <kind> --dry-run=client):
   * its JSON keeps the struct's field order instead of the sorted keys of an unstructured object.
   */
  print(io: CommandIO, obj: KubeObject, options: { typed?: boolean } = {}): void {
    if (options.typed && this.format.toLowerCase() === 'json') {
      writeLines((l) => io.stdout(l), goJsonIndent(this.showManagedFields ? obj : omitManagedFields(obj)));
      return;
    }
    const lines = new LineWriter((line) => io.stdout(line));
    this.printer.printObj(obj, (text) => lines.write(text));
    this.printer.flush?.((text) => lines.write(text));
    lines.close();
  }
}

/** json.MarshalIndent(obj, "", "    ") with Go's HTML-safe escaping (keys in the object's own order). */
export function goJsonIndent(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 4).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

// ------------------------------------------------------------------ create <subcommand>

/** cmdutil's ApplyAnnotationsFlag / typed objects: kubectl.kubernetes.io/last-applied-configuration of a typed object. */
export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * util.CreateOrUpdateAnnotation for an object kubectl built itself (a typed Go struct): the annotation is the
 * object's own JSON in field order (encoding/json of the struct, with its trailing newline), without annotations.
 */
export function withTypedLastApplied(obj: KubeObject): KubeObject {
  const { [lastAppliedAnnotation]: _old, ...rest } = obj.metadata.annotations ?? {};
  const bare: KubeObject = { ...obj, metadata: { ...obj.metadata } };
  if (Object.keys(rest).length > 0) bare.metadata.annotations = rest;
  else delete bare.metadata.annotations;
  const config = JSON.stringify(bare).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...rest, [lastAppliedAnnotation]: config } } };
}

/** create.NameFromCommandArgs: exactly one NAME before any `--`. Throws a UsageError. */
export function nameFromCommandArgs(args: string[], flags: FlagValues): string {
  const atDash = flags.argsLenAtDash ?? -1;
  const argsLen = atDash === -1 ? args.length : atDash;
  if (argsLen !== 1) throw new UsageError(`exactly one NAME is required, got ${argsLen}`);
  return args[0];
}

/** cobra's ValidateRequiredFlags: `required flag(s) "image", "schedule" not set`. */
export function requireFlags(flags: FlagValues, names: string[]): void {
  const missing = [...names].sort().filter((n) => !flags.changed(n));
  if (missing.length > 0) throw new CommandError(`required flag(s) "${missing.join('", "')}" not set`);
}

export interface TypedCreateTarget {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

/**
 * The Run of kubectl's `create <kind>` subcommands: build the object, optionally annotate it (--save-config),
 * POST it in the command's namespace (unless --dry-run=client) and print it; a server error is prefixed the way
 * each subcommand wraps it (`failed to create deployment: …`), or printed as the API error when not wrapped.
 */
export function runTypedCreate(
  env: { client: Client },
  namespace: string,
  flags: FlagValues,
  io: CommandIO,
  target: TypedCreateTarget,
  object: KubeObject,
  wrapError?: (message: string) => string,
): number {
  const dryRun = dryRunStrategy(flags);
  const printer = ObjectPrinter.create(stringFlag(flags, 'output'), 'created', { dryRun, showManagedFields: boolFlag(flags, 'show-managed-fields') });
  const validation = validationDirective(flags);
  let obj = boolFlag(flags, 'save-config') ? withTypedLastApplied(object) : object;
  if (dryRun !== DryRun.Client) {
    try {
      const res = env.client.handle<KubeObject>({
        verb: 'create',
        group: target.group,
        version: target.version,
        resource: target.resource,
        namespace: target.namespaced ? namespace : undefined,
        body: obj,
        options: { fieldManager: stringFlag(flags, 'field-manager') || undefined, fieldValidation: validation, ...(dryRun === DryRun.Server ? { dryRun: true } : {}) },
      });
      for (const w of res.warnings ?? []) io.stderr(`Warning: ${w}`);
      obj = res.body;
    } catch (err) {
      if (wrapError && isStatusError(err)) throw new CommandError(wrapError(err.message));
      throw err;
    }
  }
  printer.print(io, obj, { typed: dryRun === DryRun.Client });
  return 0;
}

/** Runs a command body, printing a thrown UsageError with kubectl's usage hint and anything else via CheckErr. */
export function guarded(io: CommandIO, commandPath: string, body: () => number): number {
  try {
    return body();
  } catch (err) {
    if (err instanceof UsageError) return usageError(io, commandPath, err.message);
    return checkErr(io, err);
  }
}

/** guarded() for async command bodies. */
export async function guardedAsync(io: CommandIO, commandPath: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof UsageError) return usageError(io, commandPath, err.message);
    return checkErr(io, err);
  }
}
