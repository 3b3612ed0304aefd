// Storage key layout, as the API server's registry builds it:
//   namespaced:      /registry/<group>/<resource>/<namespace>/<name>
//   cluster-scoped:  /registry/<group>/<resource>/<name>
// The core group ("") is written "core" (no API group may be named that: CRD groups contain a dot).
// Every directory prefix ends in '/', so prefixes of different resources never overlap (pods/ vs podtemplates/).
import { newBadRequest } from '../../shared/api/status';

export interface ResourceKeyType {
  group: string;
  resource: string;
}

export const REGISTRY_ROOT = '/registry/';
export const CORE_GROUP_SEGMENT = 'core';

/** The key of one object. namespace undefined or "" means cluster-scoped. Throws 400 for an invalid name. */
export function objectKey(rt: ResourceKeyType, namespace: string | undefined, name: string): string {
  if (name.length === 0) throw newBadRequest('Name parameter required.');
  const msgs = invalidPathSegmentName(name);
  if (msgs.length > 0) throw newBadRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${msgs.join(';')}`);
  return resourcePrefix(rt, namespace) + name;
}

/** The prefix of every object of the resource, or of those in one namespace. Always ends in '/'. */
export function resourcePrefix(rt: ResourceKeyType, namespace?: string): string {
  const base = `${REGISTRY_ROOT}${rt.group === '' ? CORE_GROUP_SEGMENT : rt.group}/${rt.resource}/`;
  return namespace ? `${base}${namespace}/` : base;
}

export interface ParsedObjectKey {
  group: string;
  resource: string;
  /** Absent for cluster-scoped objects. */
  namespace?: string;
  name: string;
}

/** The inverse of objectKey; undefined when the key is not an object key. */
export function parseObjectKey(key: string): ParsedObjectKey | undefined {
  if (!key.startsWith(REGISTRY_ROOT)) return undefined;
  const parts = key.slice(REGISTRY_ROOT.length).split('/');
  if (parts.some((p) => p === '')) return undefined;
  const group = parts[0] === CORE_GROUP_SEGMENT ? '' : parts[0];
  if (parts.length === 3) return { group, resource: parts[1], name: parts[2] };
  if (parts.length === 4) return { group, resource: parts[1], namespace: parts[2], name: parts[3] };
  return undefined;
}

const noMessages: readonly string[] = [];

/** apimachinery path.IsValidPathSegmentName. */
function invalidPathSegmentName(name: string): readonly string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  // Every key of every request comes through here: a valid name gets the one empty list.
  if (!name.includes('/') && !name.includes('%')) return noMessages;
  const msgs: string[] = [];
  if (name.includes('/')) msgs.push(`may not contain '/'`);
  if (name.includes('%')) msgs.push(`may not contain '%'`);
  return msgs;
}
