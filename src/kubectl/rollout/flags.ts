// The flag definitions kubectl's rollout, set, edit, cordon and drain commands share (cmdutil.AddFilenameOptionFlags,
// AddDryRunFlag, AddFieldManagerFlagVar, PrintFlags.AddFlags…), with kubectl v1.32's usage texts, and the
// readers for their values (dry-run strategy, durations).
import type { FlagSpec, FlagValues } from '../cli/command';

export function filenameFlags(usage: string): FlagSpec[] {
  return [
    { name: 'filename', shorthand: 'f', type: 'stringSlice', default: [], usage: `Filename, directory, or URL to files ${usage}` },
    { name: 'kustomize', shorthand: 'k', type: 'string', default: '', usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
    {
      name: 'recursive',
      shorthand: 'R',
      type: 'bool',
      default: false,
      usage: 'Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory.',
    },
  ];
}

export const selectorFlag: FlagSpec = {
  name: 'selector',
  shorthand: 'l',
  type: 'string',
  default: '',
  usage:
    "Selector (label query) to filter on, supports '=', '==', and '!='.(e.g. -l key1=value1,key2=value2). Matching objects must satisfy all of the specified label constraints.",
};

export const dryRunFlag: FlagSpec = {
  name: 'dry-run',
  type: 'string',
  default: 'none',
  noOptDefault: 'unchanged',
  usage:
    'Must be "none", "server", or "client". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource.',
};

export function fieldManagerFlag(manager: string): FlagSpec {
  return { name: 'field-manager', type: 'string', default: manager, usage: 'Name of the manager used to track field ownership.' };
}

/** genericclioptions.PrintFlags.AddFlags: -o and the template/managed-fields flags. */
export const printFlags: FlagSpec[] = [
  {
    name: 'allow-missing-template-keys',
    type: 'bool',
    default: true,
    usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.',
  },
  {
    name: 'output',
    shorthand: 'o',
    type: 'string',
    default: '',
    usage: 'Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file).',
  },
  { name: 'show-managed-fields', type: 'bool', default: false, usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.' },
  {
    name: 'template',
    type: 'string',
    default: '',
    usage:
      'Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview].',
  },
];

export const DryRun = { None: 'none', Client: 'client', Server: 'server' } as const;
export type DryRun = (typeof DryRun)[keyof typeof DryRun];

/** cmdutil.GetDryRunStrategy. Throws kubectl's error for a value it does not know. */
export function dryRunStrategy(flags: FlagValues): DryRun {
  const value = String(flags.get('dry-run') ?? 'none');
  const asBool = parseGoBool(value);
  if (asBool !== undefined) return asBool ? DryRun.Client : DryRun.None;
  switch (value) {
    case 'unchanged':
    case 'client':
      return DryRun.Client;
    case 'server':
      return DryRun.Server;
    case 'none':
      return DryRun.None;
    default:
      throw new Error(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
  }
}

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** A duration flag's value in milliseconds: the CLI core's number (ms) or a Go duration string ("30s", "1m30s"). */
export function durationMs(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value === '') return 0;
  const ms = parseGoDuration(value);
  if (ms === undefined) throw new Error(`time: invalid duration ${JSON.stringify(value)}`);
  return ms;
}

const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** time.ParseDuration, in milliseconds. */
export function parseGoDuration(s: string): number | undefined {
  let rest = s;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (!m) return undefined;
    total += Number(m[1]) * unitMs[m[2]];
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** The int flags kubectl declares as int64 (--revision, --to-revision): the CLI core may hand over a string. */
export function intFlag(flags: FlagValues, name: string): number {
  const v = flags.get(name);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') return Number.parseInt(v, 10);
  return 0;
}

export function stringFlag(flags: FlagValues, name: string): string {
  const v = flags.get(name);
  return v === undefined || v === null ? '' : String(v);
}

export function boolFlag(flags: FlagValues, name: string): boolean {
  const v = flags.get(name);
  return v === true || v === 'true';
}

export function stringListFlag(flags: FlagValues, name: string): string[] {
  const v = flags.get(name);
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v !== '') return [v];
  return [];
}
