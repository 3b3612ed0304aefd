// Field management (apimachinery/pkg/util/managedfields): who owns which field, kept in
// metadata.managedFields. Every write records its manager: create/update/patch as an "Update" entry, and
// server-side apply as an "Apply" entry whose set is exactly what the applied configuration names. Apply
// merges the configuration onto the live object, drops fields the manager applied last time and no longer
// does (unless someone else owns them), and refuses to change a field another manager owns (409 Conflict)
// unless forced, in which case ownership moves.
import { StatusReason, StatusError, type Status, type StatusCause } from '../../../../shared/api/status';
import type { KubeObject } from '../../../../shared/api/types';
import type { SchemaHints } from '../list-types';
import { containsUndefined, deepCopy, deepEqual, isJsonObject, setOwn } from '../json-value';
import { FieldSet, isCanonicalFieldsV1, pathString, type FieldPathElements } from './field-set';
import { compareValues, mergeValues, removePath, toFieldSet } from './typed-value';

export const ManagedFieldsOperation = { Apply: 'Apply', Update: 'Update' } as const;
export type ManagedFieldsOperation = (typeof ManagedFieldsOperation)[keyof typeof ManagedFieldsOperation];

export interface ManagedFieldsEntry {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

interface ManagerState {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
  /** The fieldsV1 document set was read from, while set is unchanged and the document is canonical. */
  fieldsV1?: Record<string, unknown>;
}

export interface FieldManagerContext {
  /** The request's apiVersion ("apps/v1"). */
  apiVersion: string;
  /** "status" for status-subresource writes. */
  subresource?: string;
  /** rfc3339 of now. */
  time: string;
  /** Whether the kind has a status subresource (then status is not owned through the main resource). */
  hasStatusSubresource: boolean;
}

/** BuildManagerIdentifier: appliers are one manager across versions; updaters are per apiVersion. */
function managerId(m: { manager: string; operation: string; apiVersion: string; subresource?: string }): string {
  return JSON.stringify({
    manager: m.manager,
    operation: m.operation,
    apiVersion: m.operation === ManagedFieldsOperation.Apply ? undefined : m.apiVersion,
    subresource: m.subresource || undefined,
  });
}

export function decodeManagedFields(entries: unknown): Map<string, ManagerState> {
  const out = new Map<string, ManagerState>();
  if (!Array.isArray(entries)) return out;
  for (const e of entries) {
    if (!isJsonObject(e)) continue;
    const operation = e.operation === 'Apply' ? 'Apply' : e.operation === 'Update' ? 'Update' : undefined;
    if (!operation || typeof e.manager !== 'string' || typeof e.apiVersion !== 'string') continue;
    const state: ManagerState = {
      manager: e.manager,
      operation,
      apiVersion: e.apiVersion,
      subresource: typeof e.subresource === 'string' && e.subresource ? e.subresource : undefined,
      time: typeof e.time === 'string' ? e.time : undefined,
      set: FieldSet.fromFieldsV1(e.fieldsV1),
      fieldsV1: isCanonicalFieldsV1(e.fieldsV1) ? (e.fieldsV1 as Record<string, unknown>) : undefined,
    };
    out.set(managerId(state), state);
  }
  return out;
}

/** Encodes managers in the order the API server sorts them: operation, time, manager, apiVersion, subresource. */
export function encodeManagedFields(managers: Map<string, ManagerState>): ManagedFieldsEntry[] {
  const entries: ManagedFieldsEntry[] = [];
  for (const m of managers.values()) {
    if (m.set.empty()) continue;
    const e: ManagedFieldsEntry = {
      manager: m.manager,
      operation: m.operation,
      apiVersion: m.apiVersion,
      time: m.time,
      fieldsType: 'FieldsV1',
      // An unchanged set keeps its document: re-encoding it would give the same keys in the same order.
      fieldsV1: m.fieldsV1 ?? m.set.toFieldsV1(),
    };
    if (m.time === undefined) delete e.time;
    if (m.subresource) e.subresource = m.subresource;
    entries.push(e);
  }
  const seconds = (t?: string): number => (t ? Date.parse(t) / 1000 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const strippedMetadata = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'generation', 'managedFields', 'resourceVersion'];

/**
 * The part of an object field management tracks: type and system metadata are stripped (stripmeta.go), and
 * the strategy's reset fields are left out (status through the main resource, everything but status through
 * the status subresource).
 */
export function managedView(obj: Record<string, unknown> | undefined, ctx: FieldManagerContext): Record<string, unknown> {
  if (!obj) return {};
  // The comparisons read the view and never write it, so it shares obj's subtrees: only the levels it strips
  // are copied (key by key: delete would make them slow dictionaries). A value holding undefined members is
  // copied whole instead, since the copy drops them (an object of undefined members must read as empty).
  if (containsUndefined(obj)) return managedViewOfCopy(deepCopy(obj), ctx);
  if (ctx.subresource === 'status') return obj.status === undefined ? {} : { status: obj.status };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    if (key === 'apiVersion' || key === 'kind' || (key === 'status' && ctx.hasStatusSubresource)) continue;
    const value = obj[key];
    if (key === 'metadata' && isJsonObject(value)) {
      const metadata: Record<string, unknown> = {};
      let fields = 0;
      for (const f of Object.keys(value)) {
        if (strippedMetadata.includes(f)) continue;
        setOwn(metadata, f, value[f]);
        fields++;
      }
      if (fields > 0) out.metadata = metadata;
      continue;
    }
    setOwn(out, key, value);
  }
  return out;
}

function managedViewOfCopy(out: Record<string, unknown>, ctx: FieldManagerContext): Record<string, unknown> {
  delete out.apiVersion;
  delete out.kind;
  if (isJsonObject(out.metadata)) {
    for (const f of strippedMetadata) delete out.metadata[f];
    if (Object.keys(out.metadata).length === 0) delete out.metadata;
  }
  if (ctx.subresource === 'status') {
    return out.status === undefined ? {} : { status: out.status };
  }
  if (ctx.hasStatusSubresource) delete out.status;
  return out;
}

export class FieldManager {
  constructor(private readonly hints: SchemaHints) {}

  /**
   * Records a create/update/patch by `manager`: it takes ownership of every field it added or changed; fields
   * it removed leave every manager's set. Returns next with metadata.managedFields set.
   */
  update(live: KubeObject | undefined, next: KubeObject, manager: string, ctx: FieldManagerContext): KubeObject {
    const managers = this.managersFor(live, next);
    const comparison = compareValues(managedView(live, ctx), managedView(next, ctx), this.hints);
    const changed = comparison.modified.union(comparison.added);
    const id = managerId({ manager, operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource });
    // Most writes touch few fields: a manager whose set they miss keeps its set (and its encoded document).
    for (const [key, m] of managers) {
      if (key === id || !(m.set.intersects(changed) || m.set.intersects(comparison.removed))) continue;
      m.set = m.set.difference(changed).difference(comparison.removed);
      m.fieldsV1 = undefined;
    }
    const mine = managers.get(id);
    const unchanged = mine !== undefined && !mine.set.intersects(comparison.removed) && mine.set.containsAll(changed);
    const set = unchanged ? mine.set : (mine?.set ?? new FieldSet()).difference(comparison.removed).union(changed);
    managers.set(id, {
      manager,
      operation: 'Update',
      apiVersion: ctx.apiVersion,
      subresource: ctx.subresource,
      time: set.empty() ? mine?.time : ctx.time,
      set,
      fieldsV1: unchanged ? mine.fieldsV1 : undefined,
    });
    return this.finish(live, next, managers);
  }

  /**
   * Server-side apply of config by `manager`. live undefined = create-on-apply. Throws a 409 Conflict
   * StatusError listing every conflicting field unless force is set.
   */
  apply(live: KubeObject | undefined, config: KubeObject, manager: string, force: boolean, ctx: FieldManagerContext): KubeObject {
    const managers = decodeManagedFields(live?.metadata?.managedFields);
    const applied = deepCopy(config) as KubeObject;
    if (isJsonObject(applied.metadata)) {
      delete applied.metadata.managedFields;
      delete applied.metadata.resourceVersion;
    }
    // Reset fields: the main resource cannot apply status, the status subresource applies only status.
    if (ctx.subresource === 'status') {
      for (const key of Object.keys(applied)) if (!['apiVersion', 'kind', 'metadata', 'status'].includes(key)) delete applied[key];
    } else if (ctx.hasStatusSubresource) {
      delete applied.status;
    }
    const base: KubeObject = live ? (deepCopy(live) as KubeObject) : { apiVersion: config.apiVersion, kind: config.kind, metadata: {} };
    const merged = mergeValues(base, applied, this.hints) as KubeObject;

    const id = managerId({ manager, operation: 'Apply', apiVersion: ctx.apiVersion, subresource: ctx.subresource });
    const lastSet = managers.get(id)?.set;
    const newSet = toFieldSet(managedView(applied, ctx), this.hints);
    managers.set(id, { manager, operation: 'Apply', apiVersion: ctx.apiVersion, subresource: ctx.subresource, time: ctx.time, set: newSet });

    // Prune what this manager applied last time and no longer applies, unless another manager claims it.
    if (lastSet) {
      const dropped = lastSet.difference(newSet).paths().filter((p) => !newSet.hasPrefix(p));
      for (const path of dropped.reverse()) {
        let ownedElsewhere = false;
        for (const [key, m] of managers) if (key !== id && m.set.hasPrefix(path)) ownedElsewhere = true;
        if (!ownedElsewhere) removePath(merged, path, this.hints);
      }
    }

    const comparison = compareValues(managedView(live, ctx), managedView(merged, ctx), this.hints);
    const changed = comparison.modified.union(comparison.added);
    const conflicts: { manager: ManagerState; path: FieldPathElements }[] = [];
    for (const [key, m] of managers) {
      if (key === id) continue;
      for (const path of m.set.intersection(changed).paths()) conflicts.push({ manager: m, path });
    }
    if (conflicts.length > 0 && !force) throw applyConflictError(conflicts);
    for (const [key, m] of managers) {
      if (key === id) continue;
      m.set = m.set.difference(changed).difference(comparison.removed);
      m.fieldsV1 = undefined;
    }
    return this.finish(live, merged, managers);
  }

  /** The managers a write starts from: the live object's, unless the request set managedFields itself. */
  private managersFor(live: KubeObject | undefined, next: KubeObject): Map<string, ManagerState> {
    const sent = next.metadata?.managedFields;
    const current = live?.metadata?.managedFields;
    if (sent === undefined || deepEqual(sent, current)) return decodeManagedFields(current);
    return decodeManagedFields(sent);
  }

  private finish(live: KubeObject | undefined, next: KubeObject, managers: Map<string, ManagerState>): KubeObject {
    const out = next;
    out.metadata ??= {};
    const encoded = encodeManagedFields(managers);
    const previous = live?.metadata?.managedFields;
    // IgnoreManagedFieldsTimestampsTransformer: a write that changes nothing keeps the old timestamps, so an
    // identical apply or update is a no-op in storage too.
    if (live && previous && sameIgnoringTimes(encoded, previous) && sameIgnoringManagedFields(live, out)) {
      out.metadata.managedFields = deepCopy(previous);
    } else if (encoded.length > 0) {
      out.metadata.managedFields = encoded as NonNullable<KubeObject['metadata']['managedFields']>;
    } else {
      delete out.metadata.managedFields;
    }
    return out;
  }
}

function sameIgnoringTimes(a: ManagedFieldsEntry[], b: unknown): boolean {
  if (!Array.isArray(b) || a.length !== b.length) return false;
  const strip = (e: unknown): unknown => {
    if (!isJsonObject(e)) return e;
    const { time: _time, ...rest } = e;
    return rest;
  };
  return a.every((e, i) => deepEqual(strip(e), strip(b[i])));
}

function sameIgnoringManagedFields(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => {
    const c = { ...o, metadata: { ...o.metadata } };
    delete c.metadata.managedFields;
    delete c.metadata.resourceVersion;
    return c;
  };
  return deepEqual(strip(a), strip(b));
}

/** printManager of managedfields/internal/conflict.go. */
function printManager(m: ManagerState): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  if (m.operation === 'Update') s += ` using ${m.apiVersion}`;
  return s;
}

/** NewConflictError: 409 Conflict, one cause per field, messages grouped by manager when there are several. */
export function applyConflictError(conflicts: { manager: ManagerState; path: FieldPathElements }[]): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.manager)}`,
    field: pathString(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].manager)}: ${pathString(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const key = printManager(c.manager);
      byManager.set(key, [...(byManager.get(key) ?? []), pathString(c.path)]);
    }
    const keys = [...byManager.keys()].sort(cmp);
    const lines: string[] = [];
    for (const k of keys) {
      lines.push(`conflicts with ${k}:`);
      for (const p of byManager.get(k)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: StatusReason.Conflict,
    details: { causes },
    code: 409,
  };
  return new StatusError(status);
}
