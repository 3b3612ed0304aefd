// The Kubernetes API schemas, generated from kubernetes-types by scripts/gen-schemas.mjs, keyed like the API
// server's OpenAPI definitions. Used by the decoder (strict field validation) and later by the editor.
import type { GroupVersionKind } from '../types';
import definitionsDoc from './generated/definitions.json';
import kindsIndex from './generated/kinds.json';

export type JSONSchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface JSONSchemaDefinition {
  description?: string;
  type?: JSONSchemaType;
  /** int32, int64, double, date-time, byte (base64). */
  format?: string;
  properties?: Record<string, JSONSchemaDefinition>;
  required?: string[];
  additionalProperties?: JSONSchemaDefinition | boolean;
  items?: JSONSchemaDefinition;
  /** "#/definitions/<name>" */
  $ref?: string;
  enum?: unknown[];
  anyOf?: JSONSchemaDefinition[];
  readOnly?: boolean;
  'x-kubernetes-group-version-kind'?: GroupVersionKind[];
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-quantity'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** Go struct name of a definition ("DeploymentSpec"), as encoding/json names it in errors. */
  'x-go-name'?: string;
  /** Go type of a property where it is a named type ("v1.Protocol"); otherwise derived from type/format. */
  'x-go-type'?: string;
}

export interface KindIndexEntry extends GroupVersionKind {
  /** Definition name, e.g. "io.k8s.api.apps.v1.Deployment". */
  definition: string;
}

const definitionsByName = (definitionsDoc as unknown as { definitions: Record<string, JSONSchemaDefinition> }).definitions;
const kindEntries = kindsIndex as KindIndexEntry[];
const byGvk = new Map<string, KindIndexEntry>();
for (const e of kindEntries) byGvk.set(gvkKey(e), e);

function gvkKey(g: { group: string; version: string; kind: string }): string {
  return `${g.group}/${g.version}/${g.kind}`;
}

export const definitionRefPrefix = '#/definitions/';

/** All definitions, by OpenAPI name. Read-only: shared by every caller. */
export function allDefinitions(): Readonly<Record<string, JSONSchemaDefinition>> {
  return definitionsByName;
}

/** A definition by name ("io.k8s.api.apps.v1.DeploymentSpec") or by $ref ("#/definitions/…"). */
export function definition(name: string): JSONSchemaDefinition | undefined {
  const key = name.startsWith(definitionRefPrefix) ? name.slice(definitionRefPrefix.length) : name;
  return Object.hasOwn(definitionsByName, key) ? definitionsByName[key] : undefined;
}

/** The definition name of a top-level kind, e.g. {group:"apps",version:"v1",kind:"Deployment"} → "io.k8s.api.apps.v1.Deployment". */
export function definitionNameForKind(gvk: GroupVersionKind): string | undefined {
  return byGvk.get(gvkKey(gvk))?.definition;
}

/** The schema of a top-level kind (with x-kubernetes-group-version-kind), or undefined for kinds we have no schema for. */
export function schemaForKind(gvk: GroupVersionKind): JSONSchemaDefinition | undefined {
  const name = definitionNameForKind(gvk);
  return name ? definitionsByName[name] : undefined;
}

/** Every kind with a schema (including List kinds), sorted by group/version/kind. */
export function schemaKinds(): readonly KindIndexEntry[] {
  return kindEntries;
}

/** Follows a $ref (one level); returns the schema itself when it has none. */
export function resolveRef(schema: JSONSchemaDefinition): JSONSchemaDefinition {
  if (!schema.$ref) return schema;
  const target = definition(schema.$ref);
  if (!target) throw new Error(`dangling schema reference ${schema.$ref}`);
  return target;
}
