// The Events section every describer ends with: searchEvents finds the events about an object by a field
// selector on involvedObject (name, namespace, kind, uid), and DescribeEvents prints them oldest first with
// their age, "(xN over M)" for repeats, and the reporting component.
import type { Event } from 'kubernetes-types/core/v1';
import type { Client } from '../../control-plane/client/client';
import { escapeFieldValue } from '../../shared/lib/labels';
import { LEVEL_0, LEVEL_1, timestampSince, type PrefixWriter } from './writer';

export interface EventRef {
  name: string;
  namespace?: string;
  kind?: string;
  uid?: string;
}

/** searchEvents: events whose involvedObject is ref (kind and uid only when given). */
export function searchEvents(client: Client, ref: EventRef): Event[] {
  const fields: string[] = [`involvedObject.name=${escapeFieldValue(ref.name)}`, `involvedObject.namespace=${escapeFieldValue(ref.namespace ?? '')}`];
  if (ref.kind) fields.push(`involvedObject.kind=${escapeFieldValue(ref.kind)}`);
  if (ref.uid) fields.push(`involvedObject.uid=${escapeFieldValue(ref.uid)}`);
  // Events about cluster-scoped objects live in "default"; Events(ref.Namespace) with "" lists every namespace.
  return client.events.list({ namespace: ref.namespace || undefined, fieldSelector: fields.join(',') }).items;
}

/** The age cell: "10s", or "2m (x3 over 5m)" for a repeated event. */
export function eventInterval(e: Event, now: number): string {
  const first = e.eventTime ? timestampSince(e.eventTime, now) : timestampSince(e.firstTimestamp, now);
  if (e.series) return `${timestampSince(e.series.lastObservedTime, now)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${timestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return first;
}

function time(ts: string | undefined): number {
  const ms = ts ? Date.parse(ts) : NaN;
  return Number.isNaN(ms) ? -Infinity : ms;
}

export function describeEvents(events: Event[], w: PrefixWriter, now: number): void {
  if (events.length === 0) {
    w.write(LEVEL_0, 'Events:\t<none>\n');
    return;
  }
  // event.SortableEvents: by lastTimestamp (Go's sort is stable for lists this short; keep it stable always).
  const sorted = [...events].sort((a, b) => time(a.lastTimestamp) - time(b.lastTimestamp));
  w.write(LEVEL_0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(LEVEL_1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const source = e.source?.component || e.reportingComponent || '';
    w.write(LEVEL_1, `${e.type ?? ''}\t${e.reason ?? ''}\t${eventInterval(e, now)}\t${source}\t${(e.message ?? '').trim()}\n`);
  }
}
