// Cache keys, as client-go's tools/cache builds them: "namespace/name", or "name" for cluster-scoped objects.
// Controllers enqueue these keys and split them again in sync(key).
import type { KubeObject } from '../../shared/api/types';

/** cache.MetaNamespaceKeyFunc. */
export function metaNamespaceKeyFunc(obj: Pick<KubeObject, 'metadata'>): string {
  const { namespace, name = '' } = obj.metadata ?? {};
  return namespace ? `${namespace}/${name}` : name;
}

/** cache.SplitMetaNamespaceKey: "ns/name" → {namespace: "ns", name}; "name" → {namespace: "", name}. */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const parts = key.split('/');
  if (parts.length === 1) return { namespace: '', name: parts[0] };
  if (parts.length === 2) return { namespace: parts[0], name: parts[1] };
  throw new Error(`unexpected key format: "${key}"`);
}

/** The key of an object given its coordinates. */
export function namespacedKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
