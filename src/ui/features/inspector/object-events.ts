// An object's Events as `kubectl describe` lists them: the core v1 Events whose involvedObject is this object,
// oldest first, with describe's Type, Reason, Age, From and Message columns.
import type { KubeObject } from '../../../shared/api/types';
import { humanDuration } from '../../../shared/lib/duration';

export interface CoreEvent extends KubeObject {
  involvedObject?: { kind?: string; name?: string; namespace?: string; uid?: string; fieldPath?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  source?: { component?: string; host?: string };
  reportingController?: string;
  series?: { count?: number; lastObservedTime?: string };
}

/**
 * Whether the event is about obj. Like kubectl describe: same kind, namespace and name, and the same uid when
 * the event names one (a recreated object of the same name is another object). Kubelets name a Node by its name
 * as uid, so for Nodes that counts as a match too (describe node queries both).
 */
export function isEventFor(event: CoreEvent, obj: KubeObject): boolean {
  const io = event.involvedObject;
  if (!io || io.kind !== obj.kind || io.name !== obj.metadata.name) return false;
  if ((io.namespace ?? '') !== (obj.metadata.namespace ?? '')) return false;
  if (!io.uid || io.uid === obj.metadata.uid) return true;
  return obj.kind === 'Node' && io.uid === obj.metadata.name;
}

/** When the event last happened: lastTimestamp, the series' last observation, eventTime, or its creation. */
export function lastSeen(e: CoreEvent): string {
  return e.lastTimestamp || e.series?.lastObservedTime || e.eventTime || e.metadata.creationTimestamp || '';
}

/** obj's events, oldest first (describe sorts by lastTimestamp). */
export function eventsFor(obj: KubeObject, events: Iterable<KubeObject> | undefined): CoreEvent[] {
  const out: CoreEvent[] = [];
  for (const e of events ?? []) if (isEventFor(e as CoreEvent, obj)) out.push(e as CoreEvent);
  return out.sort((a, b) => cmp(lastSeen(a), lastSeen(b)) || cmp(a.metadata.name ?? '', b.metadata.name ?? ''));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface DescribeEventRow {
  /** The Event's own name (unique in its namespace). */
  id: string;
  type: string;
  reason: string;
  /** "5s", or "2m (x4 over 10m)" for a repeated event. */
  age: string;
  from: string;
  message: string;
}

function since(time: string | null | undefined, now: number): string {
  if (!time) return '<unknown>';
  const t = Date.parse(time);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

/** One line of describe's Events table (kubectl describe's DescribeEvents). */
export function describeEventRow(e: CoreEvent, now: number): DescribeEventRow {
  const first = since(e.eventTime || e.firstTimestamp, now);
  let age = first;
  if (e.series) age = `${since(e.series.lastObservedTime, now)} (x${e.series.count ?? 0} over ${first})`;
  else if ((e.count ?? 0) > 1) age = `${since(e.lastTimestamp, now)} (x${e.count} over ${first})`;
  return {
    id: e.metadata.name ?? '',
    type: e.type ?? '',
    reason: e.reason ?? '',
    age,
    from: e.source?.component || e.reportingController || '',
    message: (e.message ?? '').trim(),
  };
}
