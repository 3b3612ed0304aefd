// JSON merge patch, RFC 7386 (application/merge-patch+json): objects merge recursively, null deletes a
// member, anything else (arrays included) replaces.
import { deepCopy, getOwn, isJsonObject, setOwn, deleteOwn } from './json-value';

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return deepCopy(patch);
  const out: Record<string, unknown> = isJsonObject(target) ? deepCopy(target) : {};
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    if (value === null) {
      deleteOwn(out, key);
    } else {
      setOwn(out, key, applyMergePatch(getOwn(out, key), value));
    }
  }
  return out;
}
