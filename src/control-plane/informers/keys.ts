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

/**
 * Keys stored recently, by their text: every informer of a cluster (and the scheduler's cache) keeps a key per
 * object, and they store the same object within moments of each other, so one string serves them all instead
 * of a copy each. Two generations of at most maxRecentKeys: a key stays findable for at least that many
 * newer ones, and the table never holds more than twice as many.
 */
const maxRecentKeys = 8192;
let recentKeys = new Map<string, string>();
let olderKeys = new Map<string, string>();

/** The key as a flat string, the same string as other recent stores of it. */
export function sharedKey(key: string): string {
  const known = recentKeys.get(key) ?? olderKeys.get(key);
  if (known !== undefined) return known;
  // Number() of a concatenation (a tree of its pieces: the namespace, "/", the name) reads it whole, which
  // flattens it in place; a flat string is returned as it is.
  Number(key);
  if (recentKeys.size >= maxRecentKeys) {
    olderKeys = recentKeys;
    recentKeys = new Map();
  }
  recentKeys.set(key, key);
  return key;
}
