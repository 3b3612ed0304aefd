// client-go's EventSourceObjectSpamFilter (tools/record/events_cache.go): every source + involved object gets
// a token bucket of 25 events refilled at one per 5 minutes, and an event without a token is skipped. It runs
// after aggregation (EventCorrelate), so a repeat that only bumps count uses a token too. The buckets live in an
// LRU of 4096 keys, as client-go's cache: an object forgotten there starts with a full bucket again.
import type { ObjectReference } from 'kubernetes-types/core/v1';
import { KeyedRecords } from '../../../shared/lib/recent-list';
import { GroupedLru, smallInteger, type LruEntry } from './grouped-lru';

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

/** golang.org/x/time/rate's Limiter as flowcontrol's passive token bucket uses it: starts full, refills continuously. */
interface Bucket extends LruEntry {
  /** The spam key's parts (getSpamKey), compared one by one instead of joined into a string per object. */
  source: BucketSource;
  namespace: string;
  name: string;
  uid: string;
  tokens: number;
  /**
   * When the bucket was last refilled, as milliseconds since the filter's first event: a small integer fits in
   * the field itself, where an absolute virtual time would be a separate heap number per bucket. Subtracting
   * the epoch is exact (it is never later than the time), so every difference is the same as with absolute times.
   */
  last: number;
}

/**
 * The parts of a spam key that few combinations of recur (the recorder's source, the object's kind and API
 * version): one record per combination, so a bucket holds one reference instead of four.
 */
interface BucketSource {
  readonly component: string;
  readonly host: string;
  readonly kind: string;
  readonly apiVersion: string;
}

/**
 * Bucket sources by host (else component), shared by every filter (frozen values; a filter per node would
 * otherwise keep a list of its own).
 */
const bucketSources = new KeyedRecords<BucketSource>(8192);

function bucketSource(component: string, host: string, kind: string, apiVersion: string): BucketSource {
  return bucketSources.get(
    host || component,
    (s) => s.kind === kind && s.apiVersion === apiVersion && s.component === component && s.host === host,
    () => ({ component, host, kind, apiVersion }),
  );
}

export class EventSourceObjectSpamFilter {
  /** The buckets by object (its uid, else its name), in least-recently-used order. */
  private readonly cache = new GroupedLru<Bucket>((b) => b.uid || b.name);
  /** The time of the first event filtered: bucket times count from it. */
  private epoch: number | undefined;

  constructor(
    private readonly options: { burst?: number; qps?: number; cacheSize?: number } = {},
  ) {}

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
    const group = uid || name;
    const epoch = (this.epoch ??= now);
    const at = smallInteger(now - epoch);
    let bucket = this.cache.find(
      group,
      (b) =>
        b.uid === uid &&
        b.name === name &&
        b.namespace === namespace &&
        b.source.kind === kind &&
        b.source.apiVersion === apiVersion &&
        b.source.component === component &&
        b.source.host === host,
    );
    if (bucket) {
      this.cache.touch(bucket); // most recently used
      const elapsedSeconds = Math.max(0, at - bucket.last) / 1000;
      bucket.tokens = Math.min(burst, bucket.tokens + elapsedSeconds * qps);
      bucket.last = at;
    } else {
      bucket = { older: undefined, newer: undefined, source: bucketSource(component, host, kind, apiVersion), namespace, name, uid, tokens: burst, last: at };
      this.cache.add(bucket);
      this.cache.evictBeyond(this.options.cacheSize ?? maxLruCacheEntries);
    }
    if (bucket.tokens < 1) return true;
    bucket.tokens -= 1;
    return false;
  }

  /** Keys held (for tests). */
  get size(): number {
    return this.cache.size;
  }
}
