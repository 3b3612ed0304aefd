// client-go's EventSourceObjectSpamFilter (tools/record/events_cache.go): every source + involved object gets
// a token bucket of 25 events refilled at one per 5 minutes, and an event without a token is skipped. It runs
// after aggregation (EventCorrelate), so a repeat that only bumps count uses a token too. The buckets live in an
// LRU of 4096 keys, as client-go's cache: an object forgotten there starts with a full bucket again.
import type { ObjectReference } from 'kubernetes-types/core/v1';
import { KeyedRecords } from '../../../shared/lib/recent-list';
import { GroupedLru, noSlot, type GroupIndex } from './grouped-lru';

/** defaultSpamBurst. */
export const defaultSpamBurst = 25;
/** defaultSpamQPS: one token every 5 minutes. */
export const defaultSpamQPS = 1 / 300;
/** maxLruCacheEntries. */
export const maxLruCacheEntries = 4096;

export interface SpamFilterSource {
  component: string;
  host?: string;
}

/**
 * getSpamKey: source component and host, involved object kind, namespace, name, uid and apiVersion. The filter
 * compares these parts one by one (the same key, without a string per object).
 */
export function spamKey(source: SpamFilterSource, ref: ObjectReference): string {
  // Joined (a flat string), not added up: concatenation leaves a tree of cons strings the cache would keep.
  return [source.component, source.host ?? '', ref.kind ?? '', ref.namespace ?? '', ref.name ?? '', ref.uid ?? '', ref.apiVersion ?? ''].join('');
}

/**
 * golang.org/x/time/rate's Limiter as flowcontrol's passive token bucket uses it (starts full, refills
 * continuously), one per spam key: an entry of the cache's columns (see GroupedLru).
 *
 *   group    the object's uid, else its name
 *   source   the key's parts few combinations of recur (BucketSource), one shared record
 *   name     the object's name (the group again when the object has no uid)
 */
const BucketRef = { source: 1, name: 2 } as const;
const bucketRefs = 3;
/** Its tokens (a fraction after a refill: a Float64Array holds it unboxed) and when it was last refilled (ms). */
const BucketNumber = { tokens: 0, last: 1 } as const;
const bucketNumbers = 2;

/**
 * The parts of a spam key that few combinations of recur (the recorder's source, the object's kind, API version
 * and namespace): one record per combination, so a bucket holds one reference instead of five.
 */
interface BucketSource {
  readonly component: string;
  readonly host: string;
  readonly kind: string;
  readonly apiVersion: string;
  readonly namespace: string;
  /** Whether the object has a uid: then the bucket's group is the uid, else the object's name. */
  readonly byUid: boolean;
}

/**
 * Bucket sources by host (else component), shared by every filter (frozen values; a filter per node would
 * otherwise keep a list of its own).
 */
const bucketSources = new KeyedRecords<BucketSource>(8192);

function bucketSource(component: string, host: string, kind: string, apiVersion: string, namespace: string, byUid: boolean): BucketSource {
  return bucketSources.get(
    host || component,
    (s) => s.kind === kind && s.apiVersion === apiVersion && s.namespace === namespace && s.byUid === byUid && s.component === component && s.host === host,
    () => ({ component, host, kind, apiVersion, namespace, byUid }),
  );
}

export class EventSourceObjectSpamFilter {
  /** The buckets by object (its uid, else its name), in least-recently-used order. */
  private readonly cache: GroupedLru;

  constructor(
    private readonly options: {
      burst?: number;
      qps?: number;
      cacheSize?: number;
      /** An index of groups shared with another cache (the recorder's event log), and this cache's lane in it. */
      groups?: { groups: GroupIndex; lane: number };
    } = {},
  ) {
    this.cache = new GroupedLru(bucketRefs, bucketNumbers, options.groups);
  }

  /** True when the event must be skipped (its source + object has no token left); takes a token otherwise. */
  filter(source: SpamFilterSource, ref: ObjectReference, now: number): boolean {
    const burst = this.options.burst ?? defaultSpamBurst;
    const qps = this.options.qps ?? defaultSpamQPS;
    const component = source.component;
    const host = source.host ?? '';
    const kind = ref.kind ?? '';
    const namespace = ref.namespace ?? '';
    const name = ref.name ?? '';
    const uid = ref.uid ?? '';
    const apiVersion = ref.apiVersion ?? '';
    const byUid = uid !== '';
    const cache = this.cache;
    let bucket = noSlot;
    for (let s = cache.first(uid || name); s !== noSlot; s = cache.next(s)) {
      const src = cache.ref(s, BucketRef.source) as BucketSource;
      if (src.byUid !== byUid || src.kind !== kind || src.apiVersion !== apiVersion || src.namespace !== namespace || src.component !== component || src.host !== host) continue;
      // Grouped by uid: the name is compared too (by name: the group is the name).
      if (byUid && cache.ref(s, BucketRef.name) !== name) continue;
      bucket = s;
      break;
    }
    let tokens: number;
    if (bucket !== noSlot) {
      cache.touch(bucket); // most recently used
      const elapsedSeconds = Math.max(0, now - cache.number(bucket, BucketNumber.last)) / 1000;
      tokens = Math.min(burst, cache.number(bucket, BucketNumber.tokens) + elapsedSeconds * qps);
      cache.setNumber(bucket, BucketNumber.last, now);
    } else {
      bucket = cache.add(uid || name);
      cache.setRef(bucket, BucketRef.source, bucketSource(component, host, kind, apiVersion, namespace, byUid));
      cache.setRef(bucket, BucketRef.name, name);
      cache.setNumber(bucket, BucketNumber.last, now);
      tokens = burst;
    }
    const skip = tokens < 1;
    if (!skip) tokens -= 1;
    cache.setNumber(bucket, BucketNumber.tokens, tokens);
    // After the bucket's numbers are written: eviction may reuse no slot but the oldest's.
    cache.evictBeyond(this.options.cacheSize ?? maxLruCacheEntries);
    return skip;
  }

  /** Keys held (for tests). */
  get size(): number {
    return this.cache.size;
  }
}
