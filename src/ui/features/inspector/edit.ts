// The inspector's Edit and Delete as API requests, and their outcomes as kubectl prints them. Edit is a PUT of
// the whole object with the resourceVersion it was read at, so a concurrent change is the API server's 409.
import type { ApiRequest, PropagationPolicy } from '../../../shared/api/request';
import type { Status } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { parseApiVersion } from '../../../shared/api/types';
import { parseYamlDocument, toYaml } from '../../../shared/lib/yaml';

/** "apps/deployments" → { group: 'apps', resource: 'deployments' } (the objects slice's resource keys). */
export function splitResourceKey(resourceKey: string): { group: string; resource: string } {
  const i = resourceKey.indexOf('/');
  return { group: resourceKey.slice(0, i), resource: resourceKey.slice(i + 1) };
}

/** The object as kubectl edit shows it: everything but metadata.managedFields. */
export function editableObject(obj: KubeObject): KubeObject {
  const { managedFields: _managedFields, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

export function editableYaml(obj: KubeObject): string {
  return toYaml(editableObject(obj));
}

export type EditParse =
  | { outcome: 'changed'; object: KubeObject }
  | { outcome: 'unchanged' }
  | { outcome: 'invalid'; message: string };

/** Reads the edited text back; unchanged when it is the same object as the one the edit started from. */
export function parseEdit(text: string, original: KubeObject): EditParse {
  const parsed = parseYamlDocument(text);
  if (parsed.error) {
    return { outcome: 'invalid', message: `error: error parsing edited object at line ${parsed.error.line}, column ${parsed.error.column}: ${parsed.error.message.split('\n')[0]}` };
  }
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { outcome: 'invalid', message: 'error: the edited file does not contain an object' };
  }
  if (sameJson(value, editableObject(original))) return { outcome: 'unchanged' };
  return { outcome: 'changed', object: value as KubeObject };
}

/** Deep equality of plain JSON values, ignoring key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => sameJson(v, bb[i]));
  }
  const ak = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bk = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The PUT for an edit: addressed to the object as it was (its resource, namespace and name), carrying the edited
 * text as the body so the API server decodes it strictly (kubectl's default --validate=strict).
 */
export function updateRequest(resourceKey: string, original: KubeObject, text: string): ApiRequest {
  const { group, resource } = splitResourceKey(resourceKey);
  return {
    verb: 'update',
    group,
    version: parseApiVersion(original.apiVersion).version,
    resource,
    namespace: original.metadata.namespace || undefined,
    name: original.metadata.name,
    rawBody: text,
    options: { fieldValidation: 'Strict' },
  };
}

export interface DeleteChoice {
  propagationPolicy: PropagationPolicy;
  /** Undefined: the object's own grace period. */
  gracePeriodSeconds?: number;
}

export function deleteRequest(resourceKey: string, obj: KubeObject, choice: DeleteChoice): ApiRequest {
  const { group, resource } = splitResourceKey(resourceKey);
  const options: ApiRequest['options'] = { propagationPolicy: choice.propagationPolicy };
  if (choice.gracePeriodSeconds !== undefined) options.gracePeriodSeconds = choice.gracePeriodSeconds;
  return {
    verb: 'delete',
    group,
    version: parseApiVersion(obj.apiVersion).version,
    resource,
    namespace: obj.metadata.namespace || undefined,
    name: obj.metadata.name,
    options,
  };
}

/** "deployment.apps", "pod": kubectl's kind.group. */
export function kindGroup(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): string {
  const { group } = parseApiVersion(obj.apiVersion);
  return `${obj.kind.toLowerCase()}${group ? `.${group}` : ''}`;
}

/** kubectl edit's success line: `deployment.apps/nginx edited`. */
export function editedMessage(obj: KubeObject): string {
  return `${kindGroup(obj)}/${obj.metadata.name ?? ''} edited`;
}

/** kubectl edit when the buffer was saved unchanged. */
export const editCancelledMessage = 'Edit cancelled, no changes made.';

/** kubectl delete's success line: `deployment.apps "nginx" deleted`. */
export function deletedMessage(obj: KubeObject): string {
  return `${kindGroup(obj)} "${obj.metadata.name ?? ''}" deleted`;
}

/** A refused request as kubectl prints it, then each field cause on its own line. */
export function statusLines(status: Pick<Status, 'reason' | 'message' | 'details'>): string[] {
  const lines = [`Error from server${status.reason ? ` (${status.reason})` : ''}: ${status.message}`];
  for (const c of status.details?.causes ?? []) {
    const text = [c.field, c.message].filter(Boolean).join(': ');
    if (text) lines.push(`  ${text}`);
  }
  return lines;
}

/** The Status a failed call carries (the protocol client's ProtocolError), or a generic one. */
export function statusOf(err: unknown): Pick<Status, 'reason' | 'message' | 'details'> {
  const status = (err as { status?: Partial<Status> } | undefined)?.status;
  if (status && typeof status.message === 'string') return { reason: status.reason ?? '', message: status.message, details: status.details };
  return { reason: '', message: err instanceof Error ? err.message : String(err) };
}
