// The cluster's playground limits, live: the admission plugin reads them on every request, so raising a limit
// (a benchmark, a test) applies at once. It also owns what the limits are measured against: the store usage and
// the one-minute window of event creations the plugin records into.
import { EventRateWindow } from './event-rate';
import {
  type PlaygroundLimits,
  type PlaygroundLimitsView,
  playgroundLimitsView,
  resolvePlaygroundLimits,
  validatePlaygroundLimits,
} from './playground-limits';
import { invalidSettingsError } from './cluster-settings';
import type { StoreUsageReader } from './store-usage';

/** What the PlaygroundLimits admission plugin needs. */
export interface PlaygroundLimitsSource {
  get(): Readonly<PlaygroundLimits>;
  /** Absent: the objects and bytes caps are not enforced (a bare API server over a store nobody measures). */
  readonly usage?: StoreUsageReader;
  readonly events: EventRateWindow;
}

export class LivePlaygroundLimits implements PlaygroundLimitsSource {
  private current: Readonly<PlaygroundLimits>;
  readonly events = new EventRateWindow();

  /** Throws a 400 when initial holds a wrong value. */
  constructor(
    initial: Partial<PlaygroundLimits> = {},
    readonly usage?: StoreUsageReader,
  ) {
    this.current = Object.freeze(resolvePlaygroundLimits(initial));
  }

  get(): Readonly<PlaygroundLimits> {
    return this.current;
  }

  /** Applies a partial update at once; throws a 400 (changing nothing) when a field is wrong. */
  configure(params: unknown): Readonly<PlaygroundLimits> {
    const errs = validatePlaygroundLimits(params);
    if (errs.length) throw invalidSettingsError(errs);
    const defined = Object.entries(params as Record<string, unknown>).filter(([, v]) => v !== undefined);
    this.current = Object.freeze({ ...this.current, ...Object.fromEntries(defined) });
    return this.current;
  }

  /** The limits with exact current usage (sizes every changed object: call it when the page asks, not per write). */
  view(now: number): PlaygroundLimitsView {
    return playgroundLimitsView(this.current, {
      objects: this.usage?.objects() ?? 0,
      storedBytes: this.usage?.storedBytes() ?? 0,
      eventsLastMinute: this.events.count(now),
    });
  }
}
