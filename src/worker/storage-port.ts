// What serveProtocol needs of the worker's storage health (worker.ts implements it over IndexedDB).
import type { StorageStatus } from '../shared/protocol/storage';

export interface StoragePort {
  status(): StorageStatus;
  /** Saves what is pending again; the full-disk alarm clears when that works. */
  retry(): Promise<StorageStatus>;
}
