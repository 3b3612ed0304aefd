// kubectl events (k8s.io/kubectl pkg/cmd/events): the namespace's (or every namespace's) events, oldest first,
// as LAST SEEN / TYPE / REASON / OBJECT / MESSAGE, filtered by --for TYPE/NAME and --types; -w prints them
// as they come (existing ones first, as a watch delivers them); -o yaml|json|name prints the EventList.
import type { Event } from 'kubernetes-types/core/v1';
import type { WatchEvent } from '../../shared/api/types';
import { toYaml } from '../../shared/lib/yaml';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';
import { eventInterval } from '../describe/events';
import { TabWriter, tableTabWriter } from '../describe/tabwriter';
import { escapeTerminal } from '../describe/writer';
import { CommandError, mappingFor } from '../resource-builder';
import { printText } from './describe';

const allowedFormats = 'json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file';

/** The time events sort by: the series' last observation, else lastTimestamp, else eventTime. */
function eventTime(e: Event): number {
  const t = e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime;
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? -Infinity : ms;
}

export function sortEvents(events: Event[]): Event[] {
  return [...events].sort((a, b) => eventTime(a) - eventTime(b));
}

function eventRow(e: Event, now: number, allNamespaces: boolean): string {
  const cells = [eventInterval(e, now), escapeTerminal(e.type ?? ''), escapeTerminal(e.reason ?? ''), `${escapeTerminal(e.involvedObject?.kind ?? '')}/${escapeTerminal(e.involvedObject?.name ?? '')}`, escapeTerminal((e.message ?? '').trim())];
  return `${allNamespaces ? `${e.metadata?.namespace ?? ''}\t` : ''}${cells.join('\t')}\n`;
}

function header(allNamespaces: boolean): string {
  return `${allNamespaces ? 'NAMESPACE\t' : ''}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
}

export const eventsCommand: CommandSpec = {
  path: ['events'],
  use: 'events [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file] [--for TYPE/NAME] [--watch] [--types=Normal,Warning]',
  short: 'List events',
  long: 'Display events.\n\n Prints a table of the most important information about events. You can request events for a namespace, for all namespace, or filtered to only those pertaining to a specified resource.',
  example: `  # List recent events in the default namespace
  kubectl events
  
  # List recent events in all namespaces
  kubectl events --all-namespaces
  
  # List recent events for the specified pod, then wait for more events and list them as they arrive
  kubectl events --for pod/web-pod-13je7 --watch
  
  # List recent events in YAML format
  kubectl events -oyaml
  
  # List recent only events of type 'Warning' or 'Normal'
  kubectl events --types=Warning,Normal`,
  flags: [
    { name: 'all-namespaces', shorthand: 'A', type: 'bool', default: false, usage: 'If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace.' },
    { name: 'allow-missing-template-keys', type: 'bool', default: true, usage: 'If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats.' },
    { name: 'chunk-size', type: 'int', default: 500, usage: 'Return large lists in chunks rather than all at once. Pass 0 to disable. This flag is beta and may change in the future.' },
    { name: 'for', type: 'string', default: '', usage: 'Filter events to only those pertaining to the specified resource.' },
    { name: 'no-headers', type: 'bool', default: false, usage: "When using the default output format, don't print headers." },
    { name: 'output', shorthand: 'o', type: 'string', default: '', usage: `Output format. One of: (${allowedFormats}).` },
    { name: 'show-managed-fields', type: 'bool', default: false, usage: 'If true, keep the managedFields when printing objects in JSON or YAML format.' },
    {
      name: 'template',
      type: 'string',
      default: '',
      usage: 'Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview].',
    },
    { name: 'types', type: 'stringSlice', default: [], usage: 'Output only events of given types.' },
    { name: 'watch', shorthand: 'w', type: 'bool', default: false, usage: 'After listing the requested events, watch for more events.' },
  ],
  async run(env, _args, flags, io) {
    try {
      return await runEvents(env, flags, io);
    } catch (err) {
      io.stderr(kubectlErrorMessage(err));
      return 1;
    }
  },
};

function printer(flags: FlagValues, io: CommandIO): ((events: Event[]) => void) | undefined {
  const output = flags.get<string>('output') ?? '';
  if (!output) return undefined;
  const showManagedFields = flags.get<boolean>('show-managed-fields') === true;
  const clean = (e: Event): Event => {
    const copy = { ...e, apiVersion: 'v1', kind: 'Event' } as Event;
    if (!showManagedFields && copy.metadata?.managedFields) {
      copy.metadata = { ...copy.metadata };
      delete copy.metadata.managedFields;
    }
    return copy;
  };
  switch (output) {
    case 'name':
      return (events) => events.forEach((e) => io.stdout(`event/${e.metadata?.name}`));
    case 'yaml':
      return (events) => printText(io.stdout, toYaml({ apiVersion: 'v1', items: events.map(clean), kind: 'EventList', metadata: {} }));
    case 'json':
      return (events) => printText(io.stdout, JSON.stringify(sortKeys({ apiVersion: 'v1', items: events.map(clean), kind: 'EventList', metadata: {} }), null, 4));
    default:
      throw new CommandError(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: ${allowedFormats.replace(/ /g, '')}`);
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

async function runEvents(env: KubectlEnv, flags: FlagValues, io: CommandIO): Promise<number> {
  const allNamespaces = flags.get<boolean>('all-namespaces') === true;
  const forObject = flags.get<string>('for') ?? '';
  let fieldSelector: string | undefined;
  if (forObject) {
    if (!forObject.includes('/')) throw new CommandError('--for must be in resource/name form');
    const parts = forObject.split('/');
    if (parts.length !== 2) throw new CommandError('arguments in resource/name form may not have more than one slash');
    const rt = mappingFor(env.registry, parts[0]);
    fieldSelector = `involvedObject.kind=${rt.kind},involvedObject.apiVersion=${rt.group ? `${rt.group}/${rt.version}` : rt.version},involvedObject.name=${parts[1]}`;
  }
  const types = [...new Set(flags.get<string[]>('types') ?? [])].sort();
  for (const t of types) if (t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning') throw new CommandError('valid --types are Normal or Warning');
  const wanted = (e: Event) => types.length === 0 || types.some((t) => t.toLowerCase() === (e.type ?? '').toLowerCase());
  const print = printer(flags, io);
  const noHeaders = flags.get<boolean>('no-headers') === true;
  const namespace = allNamespaces ? undefined : env.namespace;

  if (flags.get<boolean>('watch') === true) return watchEvents(env, namespace, fieldSelector, wanted, print, noHeaders, allNamespaces, io);

  const events = sortEvents((env.client.events.list({ namespace, fieldSelector }).items as Event[]).filter(wanted));
  if (events.length === 0) {
    io.stderr(allNamespaces ? 'No events found.' : `No events found in ${env.namespace} namespace.`);
    return 0;
  }
  if (print) {
    print(events);
    return 0;
  }
  const w = new TabWriter(tableTabWriter);
  if (!noHeaders) w.write(header(allNamespaces));
  const now = env.clock.now();
  for (const e of events) w.write(eventRow(e, now, allNamespaces));
  printText(io.stdout, w.flush());
  return 0;
}

function watchEvents(
  env: KubectlEnv,
  namespace: string | undefined,
  fieldSelector: string | undefined,
  wanted: (e: Event) => boolean,
  print: ((events: Event[]) => void) | undefined,
  noHeaders: boolean,
  allNamespaces: boolean,
  io: CommandIO,
): Promise<number> {
  return new Promise((resolve) => {
    const w = new TabWriter(tableTabWriter);
    let headed = noHeaders;
    const onEvents = (batch: WatchEvent[]) => {
      for (const ev of batch) {
        // Events expire after an hour; their deletion is not news.
        if (ev.type !== 'ADDED' && ev.type !== 'MODIFIED') continue;
        const e = ev.object as unknown as Event;
        if (!wanted(e)) continue;
        if (print) {
          print([e]);
          continue;
        }
        if (!headed) {
          w.write(header(allNamespaces));
          headed = true;
        }
        w.write(eventRow(e, env.clock.now(), allNamespaces));
        printText(io.stdout, w.flush());
      }
    };
    const handle = env.client.events.watch({ namespace, fieldSelector }, onEvents);
    env.signal.onCancel(() => {
      handle.stop();
      resolve(130);
    });
  });
}
