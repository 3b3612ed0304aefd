// JSON patch, RFC 6902 (application/json-patch+json): add, remove, replace, move, copy, test over JSON
// pointers (RFC 6901). Failure texts are those of gopkg.in/evanphx/json-patch.v4, which the API server uses;
// the server hides most of them behind a generic 422 (see handlers/patch.ts).
import { deepCopy, deepEqual, getOwn, hasOwn, isJsonObject, setOwn } from './json-value';

export class JsonPatchError extends Error {
  /** True when the patch document itself is malformed (400) rather than inapplicable (422). */
  constructor(
    message: string,
    readonly malformed = false,
  ) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

export interface JsonPatchOperation {
  op: string;
  path?: string;
  from?: string;
  value?: unknown;
}

/** The limit of apiserver's maxJSONPatchOperations. */
export const maxJsonPatchOperations = 10000;

export function decodeJsonPatch(patch: unknown): JsonPatchOperation[] {
  if (!Array.isArray(patch)) {
    throw new JsonPatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch', true);
  }
  return patch.map((op) => {
    if (!isJsonObject(op)) throw new JsonPatchError('json: cannot unmarshal into Go value of type jsonpatch.Operation', true);
    return {
      op: typeof getOwn(op, 'op') === 'string' ? (getOwn(op, 'op') as string) : 'unknown',
      path: typeof getOwn(op, 'path') === 'string' ? (getOwn(op, 'path') as string) : undefined,
      from: typeof getOwn(op, 'from') === 'string' ? (getOwn(op, 'from') as string) : undefined,
      value: hasOwn(op, 'value') ? getOwn(op, 'value') : undefined,
    };
  });
}

/** Splits a JSON pointer into unescaped reference tokens ("/a~1b/c" → ["a/b", "c"]). */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`JSON pointer must be empty or start with a "/": ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

interface Location {
  container: Record<string, unknown> | unknown[];
  key: string;
}

/** Finds the parent container of the pointer's last token, or undefined when a step is missing. */
function locate(doc: unknown, tokens: string[]): Location | undefined {
  let cur: unknown = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i];
    if (Array.isArray(cur)) {
      const idx = arrayIndex(t);
      if (idx === undefined || idx >= cur.length) return undefined;
      cur = cur[idx];
    } else if (isJsonObject(cur)) {
      if (!hasOwn(cur, t)) return undefined;
      cur = cur[t];
    } else {
      return undefined;
    }
  }
  if (!Array.isArray(cur) && !isJsonObject(cur)) return undefined;
  return { container: cur, key: tokens[tokens.length - 1] };
}

function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : undefined;
}

function getAt(loc: Location): { found: boolean; value?: unknown } {
  if (Array.isArray(loc.container)) {
    const idx = arrayIndex(loc.key);
    if (idx === undefined || idx >= loc.container.length) return { found: false };
    return { found: true, value: loc.container[idx] };
  }
  if (!hasOwn(loc.container, loc.key)) return { found: false };
  return { found: true, value: getOwn(loc.container, loc.key) };
}

function addAt(loc: Location, value: unknown, path: string): void {
  if (Array.isArray(loc.container)) {
    const arr = loc.container;
    if (loc.key === '-') {
      arr.push(value);
      return;
    }
    const idx = arrayIndex(loc.key);
    if (idx === undefined) throw new JsonPatchError(`error in add for path: '${path}': value was not a proper array index: '${loc.key}': strconv.Atoi: parsing "${loc.key}": invalid syntax`);
    if (idx > arr.length) throw new JsonPatchError(`error in add for path: '${path}': Unable to access invalid index: ${idx}: invalid index referenced`);
    arr.splice(idx, 0, value);
    return;
  }
  setOwn(loc.container, loc.key, value);
}

function removeAt(loc: Location, path: string, op: string): unknown {
  if (Array.isArray(loc.container)) {
    const idx = arrayIndex(loc.key);
    if (idx === undefined || idx >= loc.container.length) {
      throw new JsonPatchError(`error in ${op} for path: '${path}': Unable to access invalid index: ${idx ?? loc.key}: invalid index referenced`);
    }
    return loc.container.splice(idx, 1)[0];
  }
  if (!hasOwn(loc.container, loc.key)) {
    throw new JsonPatchError(`error in ${op} for path: '${path}': Unable to remove nonexistent key: ${loc.key}: missing value`);
  }
  const v = getOwn(loc.container, loc.key);
  delete (loc.container as Record<string, unknown>)[loc.key];
  return v;
}

function requirePath(op: JsonPatchOperation): string {
  if (op.path === undefined) throw new JsonPatchError('operation missing path field: missing value');
  return op.path;
}

/** Applies the operations to a copy of doc and returns it; throws JsonPatchError on the first failure. */
export function applyJsonPatch(doc: unknown, ops: JsonPatchOperation[]): unknown {
  // The root is wrapped so that a pointer of "" (the whole document) has a parent too.
  const root: Record<string, unknown> = {};
  setOwn(root, '', deepCopy(doc));
  const resolve = (pointer: string): Location | undefined => locate(root, ['', ...parsePointer(pointer)]);

  for (const op of ops) {
    switch (op.op) {
      case 'add': {
        const path = requirePath(op);
        if (op.value === undefined) throw new JsonPatchError('operation, missing value field: missing value');
        const loc = resolve(path);
        if (!loc) throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path}": missing value`);
        addAt(loc, deepCopy(op.value), path);
        break;
      }
      case 'remove': {
        const path = requirePath(op);
        const loc = resolve(path);
        if (!loc) throw new JsonPatchError(`remove operation does not apply: doc is missing path: "${path}": missing value`);
        removeAt(loc, path, 'remove');
        break;
      }
      case 'replace': {
        const path = requirePath(op);
        if (op.value === undefined) throw new JsonPatchError('operation, missing value field: missing value');
        const loc = resolve(path);
        if (!loc) throw new JsonPatchError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
        if (!getAt(loc).found) throw new JsonPatchError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
        if (Array.isArray(loc.container)) loc.container[Number(loc.key)] = deepCopy(op.value);
        else setOwn(loc.container, loc.key, deepCopy(op.value));
        break;
      }
      case 'move': {
        const path = requirePath(op);
        if (op.from === undefined) throw new JsonPatchError('operation, missing from field: missing value');
        const fromLoc = resolve(op.from);
        if (!fromLoc) throw new JsonPatchError(`move operation does not apply: doc is missing from path: ${op.from}: missing value`);
        const value = removeAt(fromLoc, op.from, 'move');
        const toLoc = resolve(path);
        if (!toLoc) throw new JsonPatchError(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
        addAt(toLoc, value, path);
        break;
      }
      case 'copy': {
        const path = requirePath(op);
        if (op.from === undefined) throw new JsonPatchError('operation, missing from field: missing value');
        const fromLoc = resolve(op.from);
        if (!fromLoc) throw new JsonPatchError(`copy operation does not apply: doc is missing from path: ${op.from}: missing value`);
        const got = getAt(fromLoc);
        if (!got.found) throw new JsonPatchError(`error in copy for from: '${op.from}': Unable to access invalid index: ${fromLoc.key}: invalid index referenced`);
        const toLoc = resolve(path);
        if (!toLoc) throw new JsonPatchError(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
        addAt(toLoc, deepCopy(got.value), path);
        break;
      }
      case 'test': {
        const path = requirePath(op);
        const loc = resolve(path);
        if (!loc) throw new JsonPatchError(`test operation does not apply: is missing path: ${path}: missing value`);
        const got = getAt(loc);
        const expected = op.value === undefined ? null : op.value;
        if (!got.found) {
          if (expected === null) break;
          throw new JsonPatchError(`testing value ${path} failed: test failed`);
        }
        if (!deepEqual(got.value, expected)) throw new JsonPatchError(`testing value ${path} failed: test failed`);
        break;
      }
      default:
        throw new JsonPatchError(`Unexpected kind: ${op.op}`);
    }
  }
  return getOwn(root, '');
}
