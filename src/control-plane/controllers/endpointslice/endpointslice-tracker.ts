// endpointslice's EndpointSliceTracker: the generation of every slice this controller wrote (or expects to be
// deleted), per Service. A Service whose cached slices lag behind is not synced from the stale cache (that would
// create duplicates); a slice event the controller did not cause (someone else's edit, an unexpected deletion)
// queues the Service.
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { LabelServiceName } from './endpointslice-util';

const deletionExpected = -1;

function serviceKey(slice: EndpointSlice): string {
  return `${slice.metadata?.namespace ?? ''}/${slice.metadata?.labels?.[LabelServiceName] ?? ''}`;
}

export class EndpointSliceTracker {
  private readonly generationsByService = new Map<string, Map<string, number>>();

  has(slice: EndpointSlice): boolean {
    return this.generationsByService.get(serviceKey(slice))?.has(slice.metadata?.uid ?? '') ?? false;
  }

  /** ShouldSync: the slice is unknown or newer than what this controller wrote. */
  shouldSync(slice: EndpointSlice): boolean {
    const g = this.generationsByService.get(serviceKey(slice))?.get(slice.metadata?.uid ?? '');
    return g === undefined || (slice.metadata?.generation ?? 0) > g;
  }

  /** StaleSlices: the cache misses a slice written, holds an older generation, or still holds one deleted. */
  staleSlices(namespace: string, serviceName: string, slices: readonly EndpointSlice[]): boolean {
    const gfs = this.generationsByService.get(`${namespace}/${serviceName}`);
    if (!gfs) return false;
    const provided = new Set<string>();
    for (const s of slices) {
      const uid = s.metadata?.uid ?? '';
      provided.add(uid);
      const g = gfs.get(uid);
      if (g !== undefined && (g === deletionExpected || g > (s.metadata?.generation ?? 0))) return true;
    }
    for (const [uid, g] of gfs) if (g !== deletionExpected && !provided.has(uid)) return true;
    return false;
  }

  update(slice: EndpointSlice): void {
    const key = serviceKey(slice);
    let gfs = this.generationsByService.get(key);
    if (!gfs) this.generationsByService.set(key, (gfs = new Map()));
    gfs.set(slice.metadata?.uid ?? '', slice.metadata?.generation ?? 0);
  }

  expectDeletion(slice: EndpointSlice): void {
    const key = serviceKey(slice);
    let gfs = this.generationsByService.get(key);
    if (!gfs) this.generationsByService.set(key, (gfs = new Map()));
    gfs.set(slice.metadata?.uid ?? '', deletionExpected);
  }

  /** HandleDeletion: forgets the slice; false when it was tracked and its deletion was not expected. */
  handleDeletion(slice: EndpointSlice): boolean {
    const key = serviceKey(slice);
    const gfs = this.generationsByService.get(key);
    if (!gfs) return true;
    const uid = slice.metadata?.uid ?? '';
    const g = gfs.get(uid);
    gfs.delete(uid);
    if (gfs.size === 0) this.generationsByService.delete(key);
    return g === undefined || g === deletionExpected;
  }

  deleteService(namespace: string, name: string): void {
    this.generationsByService.delete(`${namespace}/${name}`);
  }
}
