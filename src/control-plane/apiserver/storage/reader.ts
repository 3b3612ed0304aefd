// ObjectReader over the store: what admission plugins, the authorizer and strategies read. They only read:
// each gets the stored value's frozen view (shared, no copy), so a plugin can never change a stored value.
import type { ResourceRegistry } from '../../../shared/api/resources';
import type { GroupResource, KubeObject } from '../../../shared/api/types';
import { objectKey, resourcePrefix } from '../../store/keys';
import type { Store } from '../../store/types';
import type { ObjectReader } from '../types';
import { storedView } from './object-codec';

export class StoreObjectReader implements ObjectReader {
  constructor(
    private readonly store: Store,
    private readonly registry: ResourceRegistry,
  ) {}

  get(gr: GroupResource, namespace: string | undefined, name: string): KubeObject | undefined {
    const rt = this.registry.forGroupResource(gr);
    if (!rt || !name) return undefined;
    let key: string;
    try {
      key = objectKey(rt, rt.namespaced ? namespace : undefined, name);
    } catch {
      return undefined;
    }
    const kv = this.store.get(key);
    return kv ? storedView(kv) : undefined;
  }

  list(gr: GroupResource, namespace?: string): KubeObject[] {
    const rt = this.registry.forGroupResource(gr);
    if (!rt) return [];
    return this.store.range(resourcePrefix(rt, rt.namespaced ? namespace : undefined)).kvs.map((kv) => storedView(kv));
  }
}
