// The text side of `kubectl edit` (k8s.io/kubectl v0.32.4 pkg/cmd/util/editor/editoptions.go, cmdutil
// StripComments/ManualStrip): the header comment (with the reasons a previous save failed), comparing saved text
// without comments, reading the edited objects back, and the JSON merge patch used for custom resources.
import type { ResourceRegistry, ResourceType } from '../../shared/api/resources';
import { parseApiVersion, type KubeObject } from '../../shared/api/types';
import { parseManifests, parseYamlDocument } from '../../shared/lib/yaml';
import { deepEqual, isJsonObject, setOwn, type JsonObject, type JsonValue } from '../../control-plane/apiserver/patch/json-value';

export interface EditReason {
  head: string;
  other: string[];
}

/** editHeader.writeTo (normal edit mode). */
export function editHeader(reasons: readonly EditReason[]): string {
  let text = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`;
  for (const r of reasons) {
    text += r.other.length > 0 ? `# ${hashOnLineBreak(r.head)}:\n` : `# ${hashOnLineBreak(r.head)}\n`;
    for (const o of r.other) text += `# * ${hashOnLineBreak(o)}\n`;
    text += '#\n';
  }
  return text;
}

/** hashOnLineBreak: continuation lines of a message stay comments. */
function hashOnLineBreak(s: string): string {
  let r = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (i + 1 < s.length && ch === '\n' && s[i + 1] !== '#') r += '\n# ';
    else r += ch;
  }
  return r;
}

/** ManualStrip: drops comment lines (but not `#!` ones). */
export function manualStrip(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed.startsWith('#') && !trimmed.startsWith('#!')) return;
    out.push(line + (i < lines.length - 1 ? '\n' : ''));
  });
  return out.join('');
}

/**
 * StripComments: the text as JSON when it parses (so only content counts: comments, spacing and key order do
 * not), else with comment lines removed.
 */
export function stripComments(text: string): string {
  const parsed = parseYamlDocument(text);
  if (!parsed.error) return canonical(parsed.value);
  return manualStrip(text);
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
    .join(',')}}`;
}

/** hasLines: whether any line has content that is not a comment. */
export function hasLines(text: string): boolean {
  return text.split('\n').some((line) => {
    const t = line.trim();
    return t.length > 0 && t[0] !== '#';
  });
}

export interface EditedObject {
  rt: ResourceType;
  object: KubeObject;
}

/**
 * The builder's Stream(edited, "edited-file"): every object of the saved text (a List flattened), mapped to its
 * type. Throws the first decoding error with the builder's text.
 */
export function readEditedObjects(text: string, registry: ResourceRegistry): EditedObject[] {
  const source = 'edited-file';
  const out: EditedObject[] = [];
  for (const doc of parseManifests(text)) {
    if (doc.error) throw new Error(`error parsing ${source}: error converting YAML to JSON: yaml: line ${doc.error.line}: ${doc.error.message}`);
    if (doc.object === null || doc.object === undefined) continue;
    const obj = doc.object as KubeObject;
    if (typeof obj !== 'object' || Array.isArray(obj)) throw new Error(`error parsing ${source}: json: cannot unmarshal ${Array.isArray(obj) ? 'array' : typeof obj} into Go value of type map[string]interface {}`);
    const compact = JSON.stringify(obj, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
    if (!obj.kind || typeof obj.kind !== 'string') throw new Error(`unable to decode ${JSON.stringify(source)}: Object 'Kind' is missing in '${compact}'`);
    if (!obj.apiVersion || typeof obj.apiVersion !== 'string') throw new Error(`unable to decode ${JSON.stringify(source)}: Object 'apiVersion' is missing in '${compact}'`);
    const rt = registry.forKind({ ...parseApiVersion(obj.apiVersion), kind: obj.kind });
    if (!rt) {
      const meta = (obj.metadata ?? {}) as { name?: string; namespace?: string };
      throw new Error(
        `resource mapping not found for name: ${JSON.stringify(meta.name ?? '')} namespace: ${JSON.stringify(meta.namespace ?? '')} from ${JSON.stringify(source)}: no matches for kind ${JSON.stringify(obj.kind)} in version ${JSON.stringify(obj.apiVersion)}\nensure CRDs are installed first`,
      );
    }
    out.push({ rt, object: obj });
  }
  return out;
}

/** jsonpatch.CreateMergePatch (RFC 7386): changed and added values, null for removed keys; arrays replaced whole. */
export function createMergePatch(original: JsonValue, modified: JsonValue): JsonValue {
  if (!isJsonObject(original) || !isJsonObject(modified)) return modified;
  const patch: JsonObject = {};
  for (const key of Object.keys(modified)) {
    const m = modified[key];
    if (!Object.hasOwn(original, key)) {
      setOwn(patch, key, m);
      continue;
    }
    const o = original[key];
    if (isJsonObject(o) && isJsonObject(m)) {
      const sub = createMergePatch(o, m) as JsonObject;
      if (Object.keys(sub).length > 0) setOwn(patch, key, sub);
    } else if (!deepEqual(o, m)) {
      setOwn(patch, key, m);
    }
  }
  for (const key of Object.keys(original)) if (!Object.hasOwn(modified, key)) setOwn(patch, key, null);
  return patch;
}
