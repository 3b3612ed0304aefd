// client-go's delaying_queue.go: addAfter(item, delay) adds the item once the delay has passed on the virtual
// clock. An item already waiting keeps the earlier of its two ready times, as in client-go (an item is never
// delayed further by a second addAfter).
import type { TimerHandle } from '../sim/clock';
import { WorkQueue, keyString } from './queue';

interface Waiting {
  readyAt: number;
  timer: TimerHandle;
}

export class DelayingQueue<T = string> extends WorkQueue<T> {
  private readonly waitingItems = new Map<T, Waiting>();

  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown()) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const readyAt = this.clock.now() + delayMs;
    const existing = this.waitingItems.get(item);
    if (existing) {
      if (existing.readyAt <= readyAt) return;
      this.clock.clearTimer(existing.timer);
    }
    const timer = this.clock.setTimer(
      delayMs,
      () => {
        this.waitingItems.delete(item);
        this.add(item);
      },
      `workqueue/${this.name} addAfter ${keyString(item)}`,
    );
    this.waitingItems.set(item, { readyAt, timer });
  }

  /** Items waiting for their delay to pass, soonest first. */
  waiting(): { item: T; readyAt: number }[] {
    return [...this.waitingItems].map(([item, w]) => ({ item, readyAt: w.readyAt })).sort((a, b) => a.readyAt - b.readyAt);
  }

  /** Shuts down and drops the items still waiting for their delay, as client-go's waiting loop stops. */
  override shutDown(): void {
    for (const w of this.waitingItems.values()) this.clock.clearTimer(w.timer);
    this.waitingItems.clear();
    super.shutDown();
  }
}
