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
import { KeyedRecords } from '../../../shared/lib/recent-list';
import { GroupedLru, GroupIndex, noSlot } from './grouped-lru';
import { EventSourceObjectSpamFilter, maxLruCacheEntries } from './spam-filter';

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

/**
 * client-go's eventLog: what the eventLogger remembers of an Event it created, to patch it on a repeat, with its
 * key (getEventKey's parts; the source is the recorder's own, so it is left out). An entry of the cache's
 * columns (see GroupedLru): its references are the strings the event was made of — the object's, and the
 * message the stored Event holds too — so remembering an event costs no copy of them.
 *
 *   group    the object's uid, else its name
 *   cls      the key's parts few combinations of recur (EventClass), one shared record
 *   message
 *   name     the Event's name: "<object name>.<hex>", so the object's name is read from it, not kept again
 */
const LogRef = { cls: 1, message: 2, name: 3 } as const;
const logRefs = 4;
/** count; when it was last seen (virtual ms; a Float64Array holds it exactly, unboxed). */
const LogNumber = { count: 0, lastSeenAt: 1 } as const;
const logNumbers = 2;

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

/**
 * The parts of an event's key that few combinations of recur (Pod, spec.containers{nginx}, Normal, Pulled, the
 * namespace), one record per combination, so each remembered event holds one reference instead of five (a
 * kubelet remembers three events per pod).
 */
interface EventClass {
  readonly kind: string;
  readonly fieldPath: string;
  readonly type: string;
  readonly reason: string;
  readonly namespace: string;
  /** Whether the object has a uid: then the entry's group is the uid, else the object's name. */
  readonly byUid: boolean;
}

export class EventRecorder {
  /**
   * The eventLogger's cache: an LRU of maxLruCacheEntries keyed by getEventKey. Virtual time only moves
   * forward, so the least recently used entry is also the one seen longest ago: expired entries are the oldest.
   */
  private readonly seen: GroupedLru;
  private readonly spamFilter: EventSourceObjectSpamFilter;
  /** The events client, resolved once (the client's typed accessors look it up on every use). */
  private readonly events: Client['events'];
  /** The source as Events carry it, made once: every Event of the recorder shares it. */
  private readonly eventSource: EventSource;

  constructor(
    private readonly options: { client: Client; clock: Clock; source: EventSource },
  ) {
    this.events = options.client.events;
    // Both caches group by the object's uid (else name): one index entry per object serves them both.
    const groups = new GroupIndex(2);
    this.seen = new GroupedLru(logRefs, logNumbers, { groups, lane: 0 });
    this.spamFilter = new EventSourceObjectSpamFilter({ groups: { groups, lane: 1 } });
    const source = options.source;
    this.eventSource = Object.freeze(source.host ? { component: source.component, host: source.host } : { component: source.component });
  }

  /**
   * Records an event about obj; fieldPath names a part of it (the kubelet's `spec.containers{nginx}`), as
   * kubectl describe's "From" column shows.
   */
  event(obj: KubeObject, type: EventType, reason: string, message: string, fieldPath?: string): void {
    const { clock, source } = this.options;
    const ref = referenceTo(obj);
    if (fieldPath) ref.fieldPath = fieldPath;
    const now = clock.now();
    // client-go's EventCorrelator: 25 events per source + object, then one per 5 minutes; the rest are dropped
    // (before anything else about the event is built).
    if (this.spamFilter.filter(source, ref, now)) return;
    const namespace = ref.namespace || 'default';
    const timestamp = timestampOf(now);
    this.forgetExpired(now);
    const kind = ref.kind ?? '';
    const refNamespace = ref.namespace ?? '';
    const objectName = ref.name ?? '';
    const uid = ref.uid ?? '';
    const path = fieldPath ?? '';
    const previous = this.find(uid, objectName, refNamespace, kind, path, type, reason, message);
    const seen = this.seen;
    try {
      if (previous !== noSlot) {
        // A hit is a use: most recently used goes last.
        seen.touch(previous);
        const count = seen.number(previous, LogNumber.count) + 1;
        seen.setNumber(previous, LogNumber.count, count);
        seen.setNumber(previous, LogNumber.lastSeenAt, now);
        this.events.patch(seen.ref(previous, LogRef.name) as string, 'application/merge-patch+json', { count, lastTimestamp: timestamp }, { namespace });
        return;
      }
      // The same texts recur for every pod (Created container: nginx, …): one string serves every Event.
      const text = internMessage(clock, message);
      // Event names are "<object name>.<unix nanoseconds in hex>", as client-go makes them; virtual time has
      // millisecond steps, so the cluster's name sequence fills the sub-millisecond digits to keep names unique.
      const name = `${ref.name}.${nanosecondsHex(now, nextNameSequence(clock))}`;
      const ev: Event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: ref,
        reason,
        message: text,
        type,
        source: this.eventSource,
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count: 1,
        reportingComponent: source.component,
        reportingInstance: source.host ?? '',
      };
      this.events.create(ev as Event & KubeObject);
      const slot = seen.add(uid || objectName);
      seen.setRef(slot, LogRef.cls, eventClass(kind, path, type, reason, refNamespace, uid !== ''));
      seen.setRef(slot, LogRef.message, text);
      seen.setRef(slot, LogRef.name, name);
      seen.setNumber(slot, LogNumber.count, 1);
      seen.setNumber(slot, LogNumber.lastSeenAt, now);
      seen.evictBeyond(maxLruCacheEntries);
    } catch (err) {
      // A missing namespace (being deleted) or an Event the TTL removed: events are best-effort.
      if (!isStatusError(err)) throw err;
      if (previous !== noSlot) seen.delete(previous);
    }
  }

  /** The remembered event with this key (getEventKey's parts), or noSlot. */
  private find(uid: string, objectName: string, namespace: string, kind: string, fieldPath: string, type: string, reason: string, message: string): number {
    const seen = this.seen;
    const byUid = uid !== '';
    for (let s = seen.first(uid || objectName); s !== noSlot; s = seen.next(s)) {
      const c = seen.ref(s, LogRef.cls) as EventClass;
      if (c.byUid !== byUid || c.reason !== reason || c.fieldPath !== fieldPath || c.kind !== kind || c.type !== type || c.namespace !== namespace) continue;
      if (seen.ref(s, LogRef.message) !== message) continue;
      // The group is the uid: the object's name is the Event name's part before its last dot.
      if (byUid && !isNameOf(seen.ref(s, LogRef.name) as string, objectName)) continue;
      return s;
    }
    return noSlot;
  }

  /**
   * Forgets events past the aggregation window (their repeat starts a new Event): they are the least recently
   * used, so this stops at the first one still inside the window.
   */
  private forgetExpired(now: number): void {
    const seen = this.seen;
    for (let s = seen.oldest; s !== noSlot && now - seen.number(s, LogNumber.lastSeenAt) >= aggregationWindowMs; s = seen.oldest) seen.delete(s);
  }

  /** Events remembered for aggregation (for tests). */
  get cachedEvents(): number {
    return this.seen.size;
  }
}

/**
 * Event classes by reason, shared by every recorder (they are frozen values: a kubelet's recorder per node would
 * otherwise keep a table of its own). Containers' field paths vary with their names: the latest few per reason.
 */
const eventClasses = new KeyedRecords<EventClass>(256);

function eventClass(kind: string, fieldPath: string, type: string, reason: string, namespace: string, byUid: boolean): EventClass {
  return eventClasses.get(
    reason,
    (c) => c.kind === kind && c.fieldPath === fieldPath && c.type === type && c.namespace === namespace && c.byUid === byUid,
    () => ({ kind, fieldPath, type, reason, namespace, byUid }),
  );
}

/** Whether eventName is "<objectName>.<hex>" (hex digits hold no dot; an object's name may). */
export function isNameOf(eventName: string, objectName: string): boolean {
  const n = objectName.length;
  return eventName.length > n && eventName.charCodeAt(n) === 46 && eventName.indexOf('.', n + 1) < 0 && eventName.startsWith(objectName);
}

/**
 * Messages of recent Events by their text, per cluster (its clock), so Events with the same message share one
 * string. Bounded: it starts again when full (a message unique to one object is not worth keeping).
 */
const messageInterns = new WeakMap<Clock, Map<string, string>>();
const maxInternedMessages = 1024;

function internMessage(clock: Clock, message: string): string {
  let interned = messageInterns.get(clock);
  if (!interned) messageInterns.set(clock, (interned = new Map()));
  const known = interned.get(message);
  if (known !== undefined) return known;
  // Kept flat: a message built by concatenation is a tree of its pieces (text, object name, node name, …), which
  // the stored Event and the recorder's cache would hold. Number() reads it whole, which flattens it in place.
  Number(message);
  if (interned.size >= maxInternedMessages) interned.clear();
  interned.set(message, message);
  return message;
}

/**
 * The last timestamp formatted: a burst of events (a pod's Scheduled, Pulled, Created, Started, …) shares one
 * virtual millisecond, so this saves formatting the same instant again.
 */
let lastTimestamp = { ms: NaN, text: '' };

function timestampOf(ms: number): string {
  if (ms !== lastTimestamp.ms) lastTimestamp = { ms, text: rfc3339(ms) };
  return lastTimestamp.text;
}

const two32 = 2 ** 32;

/**
 * (ms × 10⁶ + seq) in hex, the nanoseconds of an event name, exactly: the product exceeds 2⁵³, so it is built
 * from 32-bit halves (each partial product stays exact in a double) instead of BigInt arithmetic.
 */
export function nanosecondsHex(ms: number, seq: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || !Number.isSafeInteger(seq) || seq < 0 || seq >= 1_000_000) {
    return (BigInt(ms) * 1_000_000n + BigInt(seq)).toString(16);
  }
  const hi = Math.floor(ms / two32);
  const lo = ms - hi * two32;
  const low = lo * 1_000_000 + seq; // < 2³² × 10⁶ + 10⁶ < 2⁵³
  const carry = Math.floor(low / two32);
  const high = hi * 1_000_000 + carry; // < 2²¹ × 10⁶ + 10⁶ < 2⁵³
  const lowHex = (low - carry * two32).toString(16);
  return high > 0 ? high.toString(16) + lowHex.padStart(8, '0') : lowHex;
}

/** An ObjectReference to obj, as events and kubectl describe use it. */
export function referenceTo(obj: KubeObject): ObjectReference {
  const ref: ObjectReference = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace) ref.namespace = obj.metadata.namespace;
  if (obj.metadata.uid) ref.uid = obj.metadata.uid;
  if (obj.metadata.resourceVersion) ref.resourceVersion = obj.metadata.resourceVersion;
  return ref;
}
