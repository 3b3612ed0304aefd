// client-go's record.EventRecorder with the EventCorrelator's aggregation: components report what happened to
// an object as core/v1 Events. A repeat of the same event (same source, object, type, reason and message) within
// ten minutes bumps count and lastTimestamp on the existing Event instead of creating a new one, as kubectl
// describe shows ("3x over 2m"). Writing an Event never fails the caller: errors are dropped, as client-go does.
import type { Event, ObjectReference } from 'kubernetes-types/core/v1';
import { isStatusError } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { rfc3339 } from '../../sim/clock';
import type { Clock } from '../../sim/clock';
import type { Client } from '../client';
import { EventSourceObjectSpamFilter } from './spam-filter';

export const EventType = { Normal: 'Normal', Warning: 'Warning' } as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

export interface EventSource {
  /** "default-scheduler", "kubelet", "deployment-controller", … */
  component: string;
  /** The node, for kubelet events. */
  host?: string;
}

/** How long a repeat is folded into the existing Event (client-go's maxLruCacheEntries window is 10 minutes). */
const aggregationWindowMs = 10 * 60_000;

interface Seen {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
  lastSeenAt: number;
}

/**
 * The sub-millisecond digits of event names, one sequence per cluster (its clock): every recorder of a cluster
 * draws from it, so two components writing about one object in the same virtual millisecond get two names.
 */
const nameSequences = new WeakMap<Clock, { next: number }>();

function nextNameSequence(clock: Clock): number {
  let seq = nameSequences.get(clock);
  if (!seq) nameSequences.set(clock, (seq = { next: 0 }));
  return seq.next++ % 1_000_000;
}

export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private lastPrune = -Infinity;
  private readonly spamFilter = new EventSourceObjectSpamFilter();

  constructor(
    private readonly options: { client: Client; clock: Clock; source: EventSource },
  ) {}

  /**
   * Records an event about obj; fieldPath names a part of it (the kubelet's `spec.containers{nginx}`), as
   * kubectl describe's "From" column shows.
   */
  event(obj: KubeObject, type: EventType, reason: string, message: string, fieldPath?: string): void {
    const { client, clock, source } = this.options;
    const ref = referenceTo(obj);
    if (fieldPath) ref.fieldPath = fieldPath;
    const namespace = ref.namespace || 'default';
    const key = [source.component, source.host ?? '', ref.kind, ref.namespace ?? '', ref.name, ref.uid ?? '', fieldPath ?? '', type, reason, message].join('\u0000');
    const now = clock.now();
    const timestamp = rfc3339(now);
    // client-go's EventCorrelator: 25 events per source + object, then one per 5 minutes; the rest are dropped.
    if (this.spamFilter.filter(source, ref, now)) return;
    const previous = this.seen.get(key);
    try {
      if (previous && now - previous.lastSeenAt < aggregationWindowMs) {
        previous.count++;
        previous.lastSeenAt = now;
        client.events.patch(previous.name, 'application/merge-patch+json', { count: previous.count, lastTimestamp: timestamp }, { namespace });
        return;
      }
      // Event names are "<object name>.<unix nanoseconds in hex>", as client-go makes them; virtual time has
      // millisecond steps, so the cluster's name sequence fills the sub-millisecond digits to keep names unique.
      const name = `${ref.name}.${(BigInt(now) * 1_000_000n + BigInt(nextNameSequence(clock))).toString(16)}`;
      const ev: Event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: ref,
        reason,
        message,
        type,
        source: source.host ? { component: source.component, host: source.host } : { component: source.component },
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count: 1,
        reportingComponent: source.component,
        reportingInstance: source.host ?? '',
      };
      client.events.create(ev as Event & KubeObject);
      this.seen.set(key, { namespace, name, count: 1, firstTimestamp: timestamp, lastSeenAt: now });
      this.prune(now);
    } catch (err) {
      // A missing namespace (being deleted) or an Event the TTL removed: events are best-effort.
      if (!isStatusError(err)) throw err;
      this.seen.delete(key);
    }
  }

  /** Forgets events past the aggregation window, at most once a minute of virtual time (a sweep is O(seen)). */
  private prune(now: number): void {
    if (this.seen.size < 4096 || now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    for (const [k, s] of this.seen) if (now - s.lastSeenAt >= aggregationWindowMs) this.seen.delete(k);
  }
}

/** An ObjectReference to obj, as events and kubectl describe use it. */
export function referenceTo(obj: KubeObject): ObjectReference {
  const ref: ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace) ref.namespace = obj.metadata.namespace;
  if (obj.metadata.uid) ref.uid = obj.metadata.uid;
  if (obj.metadata.resourceVersion) ref.resourceVersion = obj.metadata.resourceVersion;
  return ref;
}
