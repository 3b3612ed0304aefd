// Ctrl+C for a running command: a CancelSignal and the function that fires it.
import type { CancelSignal } from './command';

export function cancelSignal(): { signal: CancelSignal; cancel(): void } {
  let cancelled = false;
  const listeners: (() => void)[] = [];
  return {
    signal: {
      get cancelled() {
        return cancelled;
      },
      onCancel(fn) {
        if (cancelled) fn();
        else listeners.push(fn);
      },
    },
    cancel() {
      if (cancelled) return;
      cancelled = true;
      for (const fn of listeners.splice(0)) fn();
    },
  };
}
