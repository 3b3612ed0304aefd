// Heap readings after a full collection (node --expose-gc); undefined without it, so figures say "n/a".
export function gcAvailable(): boolean {
  return typeof (globalThis as { gc?: () => void }).gc === 'function';
}

export function heapUsedAfterGc(): number | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export const MiB = 2 ** 20;
