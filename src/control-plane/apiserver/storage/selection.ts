// The label and field selectors of list, watch and deletecollection (storage.SelectionPredicate). Field
// selectors may use metadata.name, metadata.namespace and whatever the kind's strategy makes selectable;
// anything else is a 400 "field label not supported".
import { newBadRequest } from '../../../shared/api/status';
import type { ResourceType } from '../../../shared/api/resources';
import type { KubeObject } from '../../../shared/api/types';
import {
  checkFieldSelectorFields,
  fieldSelectorMatchesBy,
  parseFieldSelector,
  parseSelector,
  selectorMatches,
  type FieldSelector,
  type Selector,
} from '../../../shared/lib/labels';
import type { ResourceStrategy } from '../types';

export interface Selection {
  labels: Selector;
  fields: FieldSelector;
  /** Neither selector restricts anything. */
  everything: boolean;
}

export function parseSelection(
  options: { labelSelector?: string; fieldSelector?: string } | undefined,
  rt: ResourceType,
  strategy: ResourceStrategy,
): Selection {
  let labels: Selector;
  let fields: FieldSelector;
  try {
    labels = parseSelector(options?.labelSelector ?? '');
    fields = parseFieldSelector(options?.fieldSelector ?? '');
    checkFieldSelectorFields(fields, supportedFields(rt, strategy));
  } catch (err) {
    throw newBadRequest(err instanceof Error ? err.message : String(err));
  }
  return { labels, fields, everything: labels.requirements.length === 0 && !labels.nothing && fields.requirements.length === 0 };
}

const supportedCache = new WeakMap<ResourceStrategy, string[]>();

function supportedFields(rt: ResourceType, strategy: ResourceStrategy): string[] {
  let out = supportedCache.get(strategy);
  if (!out) {
    const probe: KubeObject = { apiVersion: rt.group ? `${rt.group}/${rt.version}` : rt.version, kind: rt.kind, metadata: {} };
    out = ['metadata.name', ...(rt.namespaced ? ['metadata.namespace'] : [])];
    try {
      for (const f of Object.keys(strategy.selectableFields?.(probe) ?? {})) if (!out.includes(f)) out.push(f);
    } catch {
      // A strategy that cannot describe an empty object still supports the metadata fields.
    }
    supportedCache.set(strategy, out);
  }
  return out;
}

export function objectFields(obj: KubeObject, rt: ResourceType, strategy: ResourceStrategy): Record<string, string> {
  const base: Record<string, string> = { 'metadata.name': obj.metadata?.name ?? '' };
  if (rt.namespaced) base['metadata.namespace'] = obj.metadata?.namespace ?? '';
  const own = strategy.selectableFields?.(obj);
  return own ? Object.assign(base, own) : base;
}

/**
 * Field values of recently written stored values: every kubelet watches pods with its own spec.nodeName
 * selector, so one pod write is matched by every watcher its dispatch reaches, one after the other. Stored
 * values are never mutated (the store's contract), so the object itself is the cache key. Only the last
 * writes' are kept: keeping every live object's (a WeakMap) cost ~250 bytes per pod for values read again only
 * by a list with a field selector, which computes them anew.
 */
const storedFieldsCache = new Map<KubeObject, Record<string, string>>();
const maxStoredFields = 512;

function storedFields(obj: KubeObject, rt: ResourceType, strategy: ResourceStrategy): Record<string, string> {
  let fields = storedFieldsCache.get(obj);
  if (!fields) {
    fields = objectFields(obj, rt, strategy);
    // The oldest entry goes first (a Map iterates in insertion order).
    if (storedFieldsCache.size >= maxStoredFields) storedFieldsCache.delete(storedFieldsCache.keys().next().value!);
    storedFieldsCache.set(obj, fields);
  }
  return fields;
}

/** Selection over a stored value (list and watch filter what the store holds, before copying). */
export function selectionMatches(sel: Selection, obj: KubeObject, rt: ResourceType, strategy: ResourceStrategy): boolean {
  if (sel.everything) return true;
  if (!selectorMatches(sel.labels, obj.metadata?.labels ?? {})) return false;
  if (sel.fields.requirements.length === 0) return true;
  // Field by field: where the kind reads one alone, a pod's eight selectable fields are not all read for the one or two a selector names.
  return fieldSelectorMatchesBy(sel.fields, (field) => storedFieldValue(obj, field, rt, strategy));
}

/**
 * The exact field requirement a watch can be indexed by (the store's WatchOptions.index): the first `field=value`
 * of the field selector. Every object the selection matches has that value, so a write whose object neither had
 * nor has it cannot produce an event for the watcher.
 */
export function exactFieldRequirement(sel: Selection): { field: string; value: string } | undefined {
  const r = sel.fields.requirements.find((req) => req.operator === '=');
  return r ? { field: r.field, value: r.value } : undefined;
}

/** A stored value's field, as field selectors read it ('' when the object has no such field). */
export function storedFieldValue(obj: KubeObject, field: string, rt: ResourceType, strategy: ResourceStrategy): string {
  // The index reads one field of each write's old and new value: read alone where the kind can.
  const one = strategy.selectableField?.(obj, field);
  if (one !== undefined) return one;
  const fields = storedFields(obj, rt, strategy);
  return Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : '';
}
