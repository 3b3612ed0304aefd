// Merge hints for a custom resource, read from its openAPIV3Schema: x-kubernetes-list-type (map with
// x-kubernetes-list-map-keys, set, atomic — the default for CRD lists) and x-kubernetes-map-type. Metadata
// follows the built-in rules (finalizers are a set, ownerReferences are keyed by uid).
import { builtinSchemaHints, type ListType, type SchemaHints } from '../patch/list-types';
import { getOwn, isJsonObject } from '../patch/json-value';

type Schema = Record<string, unknown>;

function child(node: Schema | undefined, name: string): Schema | undefined {
  let cur = node;
  while (cur && cur.type === 'array' && isJsonObject(cur.items)) cur = cur.items as Schema;
  if (!cur) return undefined;
  const props = cur.properties;
  if (isJsonObject(props)) {
    const p = getOwn(props, name);
    if (isJsonObject(p)) return p as Schema;
  }
  return isJsonObject(cur.additionalProperties) ? (cur.additionalProperties as Schema) : undefined;
}

function resolve(schema: Schema | undefined, path: readonly string[]): Schema | undefined {
  let node = schema;
  for (const name of path) {
    node = child(node, name);
    if (!node) return undefined;
  }
  return node;
}

export function crdSchemaHints(kind: string, schema: unknown): SchemaHints {
  const root = isJsonObject(schema) ? (schema as Schema) : undefined;
  const builtin = builtinSchemaHints(kind);
  return {
    listType(path): ListType {
      if (path[0] === 'metadata') return builtin.listType(path);
      const node = resolve(root, path);
      const t = node?.['x-kubernetes-list-type'];
      if (t === 'set') return { type: 'set' };
      if (t === 'map') {
        const keys = Array.isArray(node?.['x-kubernetes-list-map-keys']) ? (node['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string') : [];
        if (keys.length > 0) return { type: 'map', mergeKey: keys[0], keys };
      }
      return { type: 'atomic' };
    },
    isAtomicMap(path): boolean {
      if (path[0] === 'metadata') return false;
      const node = resolve(root, path);
      return node?.['x-kubernetes-map-type'] === 'atomic';
    },
  };
}
