// client-go's flowcontrol.Backoff as the kubelet uses it for CrashLoopBackOff and ImagePullBackOff: per key, an
// initial period (10 s) doubling to a maximum (5 min); an entry whose last update is more than twice the maximum
// old (10 min) has expired, so a container that ran for 10 minutes starts again from 10 s. No jitter: the
// kubelet creates both back-offs without it.
export interface BackoffEntry {
  backoffMs: number;
  lastUpdate: number;
}

export class Backoff {
  /** Made at the first entry: a kubelet has two back-offs, and most nodes never need either (an empty Map costs ~200 bytes). */
  private entries: Map<string, BackoffEntry> | undefined;

  constructor(
    readonly initialMs = 10_000,
    readonly maxMs = 300_000,
  ) {}

  private expired(eventTime: number, entry: BackoffEntry): boolean {
    return eventTime - entry.lastUpdate > this.maxMs * 2;
  }

  /** The current period for key (0 when none). */
  get(key: string): number {
    return this.entries?.get(key)?.backoffMs ?? 0;
  }

  /** Moves key to its next period: the initial one for a new or expired entry, else double (capped). */
  next(key: string, eventTime: number, now: number): void {
    const entry = this.entries?.get(key);
    if (!entry || this.expired(eventTime, entry)) {
      (this.entries ??= new Map()).set(key, { backoffMs: this.initialMs, lastUpdate: now });
      return;
    }
    entry.backoffMs = Math.min(entry.backoffMs * 2, this.maxMs);
    entry.lastUpdate = now;
  }

  /** IsInBackOffSince: whether now is within the period counted from eventTime (a container's finish time). */
  isInBackOffSince(key: string, eventTime: number, now: number): boolean {
    const entry = this.entries?.get(key);
    if (!entry || this.expired(eventTime, entry)) return false;
    return now - eventTime < entry.backoffMs;
  }

  /** IsInBackOffSinceUpdate: whether now is within the period counted from the last update (image pulls). */
  isInBackOffSinceUpdate(key: string, now: number): boolean {
    const entry = this.entries?.get(key);
    if (!entry || this.expired(now, entry)) return false;
    return now - entry.lastUpdate < entry.backoffMs;
  }

  /** When the current period (from eventTime) ends. */
  endsAt(key: string, eventTime: number): number {
    return eventTime + this.get(key);
  }

  lastUpdate(key: string): number | undefined {
    return this.entries?.get(key)?.lastUpdate;
  }

  delete(key: string): void {
    this.entries?.delete(key);
  }

  /** Drops entries for keys with the prefix (a pod that went away). */
  deletePrefix(prefix: string): void {
    if (!this.entries) return;
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}
