// Asks the browser to keep this site's storage under pressure (best-effort storage may be evicted, taking the
// saved cluster with it). Only the page can ask: navigator.storage.persist() does not exist in workers.
export async function requestPersistentStorage(storage: Pick<StorageManager, 'persist' | 'persisted'> | undefined = globalThis.navigator?.storage): Promise<boolean> {
  if (!storage?.persist) return false;
  try {
    if (await storage.persisted?.()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}
