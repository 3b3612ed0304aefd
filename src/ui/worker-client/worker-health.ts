// The cluster worker's health as the page shows it (the banner reads it; connection.ts's supervisor writes it).
// A tiny external store for useSyncExternalStore: no React, no app state slice, so it works before React starts.
import type { WorkerHealthState } from './worker-supervisor';
import { WorkerPhase } from './worker-supervisor';

let current: WorkerHealthState = { phase: WorkerPhase.Starting, restarts: 0, storage: {} };
const listeners = new Set<() => void>();

export function getWorkerHealth(): WorkerHealthState {
  return current;
}

export function setWorkerHealth(state: WorkerHealthState): void {
  current = state;
  for (const l of [...listeners]) l();
}

export function subscribeWorkerHealth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
