// Field management (apimachinery/pkg/util/managedfields): who owns which field, kept in
// metadata.managedFields. Every write records its manager: create/update/patch as an "Update" entry, and
// server-side apply as an "Apply" entry whose set is exactly what the applied configuration names. Apply
// merges the configuration onto the live object, drops fields the manager applied last time and no longer
// does (unless someone else owns them), and refuses to change a field another manager owns (409 Conflict)
// unless forced, in which case ownership moves.
import { StatusReason, StatusError, type Status, type StatusCause } from '../../../../shared/api/status';
import type { KubeObject } from '../../../../shared/api/types';
import { KeyedRecords } from '../../../../shared/lib/recent-list';
import type { SchemaHints } from '../list-types';
import { containsUndefined, deepCopy, deepEqual, hasOwn, isJsonObject, setOwn } from '../json-value';
import { FieldSet, fieldsV1ContainsAll, fieldsV1Empty, fieldsV1Encodes, fieldsV1Intersects, isCanonicalFieldsV1, mergeFieldsV1, pathString, type FieldPathElements } from './field-set';
import { addedFieldsV1, compareValues, matchesAddedFieldsV1, comparisonEmpty, mergeValues, removePath, toFieldSet } from './typed-value';
import { ManagedFieldsInterner } from './managed-fields-intern';

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
  /**
   * The stored entry fieldsV1 came from, when it is exactly what encoding this manager would give with that
   * document and its time then: kept as it is, so the new version shares it with the previous one.
   */
  entry?: ManagedFieldsEntry;
}

/**
 * A manager as an update first sees it: its document not yet decoded. Most writes touch few fields, so most
 * managers keep their document as it is, and only the ones a write takes fields from are decoded.
 */
interface PendingManager {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  subresource?: string;
  time?: string;
  doc: unknown;
  /** The entry read. */
  source: Record<string, unknown>;
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
  /**
   * Who is writing (the acting user). Memory only: the interner matches a writer's new documents against that
   * writer's recent ones, then the manager's. Every kubelet writes as the manager "kubelet": its pods' status
   * documents name its node's address, so they match its own earlier ones; its Lease's matches any node's.
   */
  writer?: string;
}

/**
 * BuildManagerIdentifier: appliers are one manager across versions; updaters are per apiVersion. Each part
 * but the last is length-prefixed, so distinct managers never share a key.
 */
function managerId(m: { manager: string; operation: string; apiVersion: string; subresource?: string }): string {
  const apiVersion = m.operation === ManagedFieldsOperation.Apply ? '' : m.apiVersion;
  const subresource = m.subresource || '';
  return managerIds.get(
    m.manager,
    (x) => x.operation === m.operation && x.apiVersion === apiVersion && x.subresource === subresource,
    () => ({ operation: m.operation, apiVersion, subresource, id: `${m.operation}|${apiVersion.length}|${apiVersion}|${subresource.length}|${subresource}|${m.manager}` }),
  ).id;
}

/**
 * The identifiers made so far, by manager: every write asks for its own and each stored entry's, and one
 * string per identifier is also hashed only once by the maps keyed by it.
 */
const managerIds = new KeyedRecords<{ operation: string; apiVersion: string; subresource: string; id: string }>(16384);

/** decodeManagedFields' reading of one entry, its fieldsV1 left as it is. */
function pendingManager(e: unknown): PendingManager | undefined {
  if (!isJsonObject(e)) return undefined;
  const operation = e.operation === 'Apply' ? 'Apply' : e.operation === 'Update' ? 'Update' : undefined;
  if (!operation || typeof e.manager !== 'string' || typeof e.apiVersion !== 'string') return undefined;
  return {
    manager: e.manager,
    operation,
    apiVersion: e.apiVersion,
    subresource: typeof e.subresource === 'string' && e.subresource ? e.subresource : undefined,
    time: typeof e.time === 'string' ? e.time : undefined,
    doc: e.fieldsV1,
    source: e,
  };
}

/** The manager of a pending entry, its set decoded; the document kept when it is what encoding would give. */
function decodedManager(p: PendingManager): ManagerState {
  return managerState(p, FieldSet.fromFieldsV1(p.doc), canonicalDoc(p.doc), undefined);
}

/** One literal of every ManagerState member (a spread of a partial one makes a slower, differently shaped object). */
function managerState(p: PendingManager, set: FieldSet, fieldsV1: Record<string, unknown> | undefined, entry: ManagedFieldsEntry | undefined): ManagerState {
  return { manager: p.manager, operation: p.operation, apiVersion: p.apiVersion, subresource: p.subresource, time: p.time, set, fieldsV1, entry };
}

/**
 * Documents already checked canonical. Stored objects are frozen, so a document reached again through the
 * same object (or a shared subtree of a later version) need not be walked again.
 */
const canonicalDocs = new WeakSet<object>();

function canonicalDoc(doc: unknown): Record<string, unknown> | undefined {
  if (!isJsonObject(doc)) return undefined;
  if (canonicalDocs.has(doc)) return doc;
  if (!isCanonicalFieldsV1(doc)) return undefined;
  if (Object.isFrozen(doc)) canonicalDocs.add(doc);
  return doc;
}

export function decodeManagedFields(entries: unknown): Map<string, ManagerState> {
  const out = new Map<string, ManagerState>();
  if (!Array.isArray(entries)) return out;
  for (const e of entries) {
    const p = pendingManager(e);
    if (p) out.set(managerId(p), decodedManager(p));
  }
  return out;
}

/** Encodes managers in the order the API server sorts them: operation, time, manager, apiVersion, subresource. */
export function encodeManagedFields(managers: Map<string, ManagerState>, interner?: ManagedFieldsInterner, writer?: InternAt): ManagedFieldsEntry[] {
  const entries: ManagedFieldsEntry[] = [];
  for (const [managerKey, m] of managers) {
    // Where the interner keeps this manager's recent documents: the writer's own place for the writing manager.
    const own = writer !== undefined && managerKey === writer.id;
    const key = own ? writer.key : managerKey;
    const shared = own ? writer.shared : undefined;
    if (m.fieldsV1 !== undefined ? fieldsV1Empty(m.fieldsV1) : m.set.empty()) continue;
    // A manager the write left as it was keeps its stored entry.
    if (m.entry !== undefined && m.entry.fieldsV1 === m.fieldsV1 && m.entry.time === m.time) {
      entries.push(m.entry);
      continue;
    }
    // An unchanged set keeps its document: re-encoding it would give the same keys in the same order. A new
    // document is shared with the equal one this manager wrote last, when there is one.
    const fieldsV1 = m.fieldsV1 ?? (interner ? encodedDocument(interner, key, m.set, shared) : m.set.toFieldsV1());
    // One literal per shape: a property added to a literal afterwards goes to a separate property array (per
    // entry: a status writer's entry is its own, as its document differs per pod), and deleting one makes the
    // entry a dictionary.
    const e: ManagedFieldsEntry =
      m.time === undefined
        ? m.subresource
          ? { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, fieldsType: 'FieldsV1', fieldsV1, subresource: m.subresource }
          : { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, fieldsType: 'FieldsV1', fieldsV1 }
        : m.subresource
          ? { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, time: m.time, fieldsType: 'FieldsV1', fieldsV1, subresource: m.subresource }
          : { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion, time: m.time, fieldsType: 'FieldsV1', fieldsV1 };
    entries.push(interner && Object.isFrozen(fieldsV1) ? interner.entry(key, e, shared) : e);
  }
  const seconds = (t?: string): number => (t ? Date.parse(t) / 1000 : 0);
  // A copy at its exact length: the list is stored with the object, and one grown by push keeps room for 16
  // more entries per object.
  return entries.slice().sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
}

/**
 * The set's document: a recent one of the manager's that encodes it (the first status write of a node's pods
 * repeats one), found without encoding the set; else the set encoded and interned.
 */
function encodedDocument(interner: ManagedFieldsInterner, key: string, set: FieldSet, sharedKey?: string): Record<string, unknown> {
  return recentOrInterned(interner, key, sharedKey, (d) => fieldsV1Encodes(d, set), () => set.toFieldsV1());
}

/** A recent document of the manager's that matches, else build()'s, interned; known canonical either way. */
function recentOrInterned(
  interner: ManagedFieldsInterner,
  key: string,
  sharedKey: string | undefined,
  matches: (doc: Record<string, unknown>) => boolean,
  build: () => Record<string, unknown>,
): Record<string, unknown> {
  const found = interner.find(key, matches, sharedKey);
  if (found === undefined) return internedDocument(interner, key, build(), sharedKey);
  canonicalDocs.add(found);
  return found;
}

/** The shared, frozen copy of a freshly encoded document; canonical by construction, so known as such. */
function internedDocument(interner: ManagedFieldsInterner, key: string, doc: Record<string, unknown>, sharedKey?: string): Record<string, unknown> {
  const out = interner.document(key, doc, sharedKey);
  canonicalDocs.add(out);
  return out;
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
  return updateView(obj, ctx);
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
  /** Shares equal documents and entries between the objects of this resource (they are frozen once stored). */
  private readonly interner = new ManagedFieldsInterner();

  constructor(private readonly hints: SchemaHints) {}

  /**
   * Records a create/update/patch by `manager`: it takes ownership of every field it added or changed; fields
   * it removed leave every manager's set. Returns next with metadata.managedFields set.
   */
  update(live: KubeObject | undefined, next: KubeObject, manager: string, ctx: FieldManagerContext): KubeObject {
    const pending = this.pendingManagersFor(live, next);
    if (!live && pending.size === 0) return this.create(next, manager, ctx);
    const comparison = compareValues(updateView(live, ctx), updateView(next, ctx), this.hints);
    const { added, modified, removed } = comparison;
    const changed = modified.empty() ? added : added.empty() ? modified : modified.union(added);
    const anyRemoved = !removed.empty();
    const id = managerId({ manager, operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource });
    const at = internAt(id, ctx);
    const managers = new Map<string, ManagerState>();
    // Most writes touch few fields: a manager whose set they miss keeps its set (and its encoded document),
    // found by looking the changed fields up in its document rather than decoding it.
    let mine: PendingManager | undefined;
    for (const [otherId, p] of pending) {
      if (otherId === id) {
        mine = p;
        continue;
      }
      const touched = fieldsV1Intersects(p.doc, changed) || (anyRemoved && fieldsV1Intersects(p.doc, removed));
      if (!touched) {
        managers.set(otherId, decodedOrKept(p));
        continue;
      }
      const doc = canonicalDoc(p.doc);
      if (doc === undefined) managers.set(otherId, managerState(p, FieldSet.fromFieldsV1(p.doc).difference(changed).difference(removed), undefined, undefined));
      else managers.set(otherId, managerState(p, lazySet, internedDocument(this.interner, otherId, mergeFieldsV1(doc, [changed, removed], undefined)), undefined));
    }
    const unchanged = mine !== undefined && !(anyRemoved && fieldsV1Intersects(mine.doc, removed)) && fieldsV1ContainsAll(mine.doc, changed);
    const mineDoc = !unchanged && mine !== undefined ? canonicalDoc(mine.doc) : undefined;
    let set: FieldSet;
    let fieldsV1: Record<string, unknown> | undefined;
    let empty: boolean;
    if (unchanged) {
      // Its set stays as it is, and so does its document when that is canonical.
      const kept = decodedOrKept(mine!);
      ({ set, fieldsV1 } = kept);
      empty = fieldsV1 !== undefined ? fieldsV1Empty(fieldsV1) : set.empty();
    } else if (mineDoc !== undefined) {
      // Its document with the removed fields taken out and the changed ones added, sharing the rest.
      set = lazySet;
      fieldsV1 = internedDocument(this.interner, at.key, mergeFieldsV1(mineDoc, [removed], changed), at.shared);
      empty = fieldsV1Empty(fieldsV1);
    } else {
      set = mine ? FieldSet.fromFieldsV1(mine.doc).difference(removed).union(changed) : changed;
      empty = set.empty();
    }
    managers.set(id, { manager, operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource, time: empty ? mine?.time : ctx.time, set, fieldsV1, entry: undefined });
    return this.finish(live, next, managers, comparisonEmpty(comparison), at);
  }

  /**
   * update() of a new object no manager owns anything of: its manager owns every field, as compareValues
   * against nothing would find them, encoded straight from the object.
   */
  private create(next: KubeObject, manager: string, ctx: FieldManagerContext): KubeObject {
    const id = managerId({ manager, operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource });
    const managers = new Map<string, ManagerState>();
    const view = updateView(next, ctx);
    // Most creates of a manager have a recent twin (pods of one template, events of one kind): matching the
    // object against its documents builds nothing.
    const at = internAt(id, ctx);
    const fieldsV1 = recentOrInterned(this.interner, at.key, at.shared, (d) => matchesAddedFieldsV1(view, this.hints, d), () => addedFieldsV1(view, this.hints));
    if (!fieldsV1Empty(fieldsV1)) {
      managers.set(id, { manager, operation: 'Update', apiVersion: ctx.apiVersion, subresource: ctx.subresource, time: ctx.time, set: lazySet, fieldsV1, entry: undefined });
    }
    return this.finish(undefined, next, managers, false, at);
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
    managers.set(id, { manager, operation: 'Apply', apiVersion: ctx.apiVersion, subresource: ctx.subresource, time: ctx.time, set: newSet, fieldsV1: undefined, entry: undefined });

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
      m.entry = undefined;
    }
    return this.finish(live, merged, managers);
  }

  /** The managers a write starts from: the live object's, unless the request set managedFields itself. */
  private managersFor(live: KubeObject | undefined, next: KubeObject): Map<string, ManagerState> {
    return decodeManagedFields(managedFieldsSource(live, next));
  }

  /** managersFor, each manager's document not yet decoded. */
  private pendingManagersFor(live: KubeObject | undefined, next: KubeObject): Map<string, PendingManager> {
    const out = new Map<string, PendingManager>();
    const entries = managedFieldsSource(live, next);
    if (!Array.isArray(entries)) return out;
    for (const e of entries) {
      const p = pendingManager(e);
      if (p) out.set(managerId(p), p);
    }
    return out;
  }

  /** mayBeNoop: false when the write is known to change the object (then its timestamps are new). */
  private finish(live: KubeObject | undefined, next: KubeObject, managers: Map<string, ManagerState>, mayBeNoop = true, writer?: InternAt): KubeObject {
    const out = next;
    out.metadata ??= {};
    const encoded = encodeManagedFields(managers, this.interner, writer);
    const previous = live?.metadata?.managedFields;
    // IgnoreManagedFieldsTimestampsTransformer: a write that changes nothing keeps the old timestamps, so an
    // identical apply or update is a no-op in storage too.
    if (mayBeNoop && live && previous && sameIgnoringTimes(encoded, previous) && sameIgnoringManagedFields(live, out)) {
      // A stored (frozen) list is shared as it is: the new version then shares it with the previous one.
      out.metadata.managedFields = Object.isFrozen(previous) ? previous : deepCopy(previous);
    } else if (encoded.length > 0) {
      out.metadata.managedFields = this.interner.list(encoded) as NonNullable<KubeObject['metadata']['managedFields']>;
    } else {
      delete out.metadata.managedFields;
    }
    return out;
  }
}

/**
 * Where the interner keeps the documents of manager id as one writer writes them: under key (the writer's own
 * place within the manager, or the manager's when the write names no writer), falling back to shared (the
 * manager's) when key is the writer's.
 */
interface InternAt {
  readonly id: string;
  readonly key: string;
  readonly shared: string | undefined;
}

/** Made once per writer and manager (every write asks); writer '' for writes that name none. */
const internAts = new KeyedRecords<InternAt>(16384);

function internAt(id: string, ctx: FieldManagerContext): InternAt {
  const writer = ctx.writer ?? '';
  return internAts.get(
    writer,
    (at) => at.id === id,
    () => (writer ? { id, key: `${id}\n${writer}`, shared: id } : { id, key: id, shared: undefined }),
  );
}

/** The entries a write starts from: the live object's, unless the request set managedFields itself. */
function managedFieldsSource(live: KubeObject | undefined, next: KubeObject): unknown {
  const sent = next.metadata?.managedFields;
  const current = live?.metadata?.managedFields;
  if (sent === undefined || sent === current || deepEqual(sent, current)) return current;
  return sent;
}

/**
 * A pending manager the write leaves alone, as a ManagerState: a canonical document is kept as it is, its set
 * never decoded; any other document is decoded now, to be encoded afresh.
 */
function decodedOrKept(p: PendingManager): ManagerState {
  const doc = canonicalDoc(p.doc);
  if (doc === undefined) return decodedManager(p);
  return managerState(p, lazySet, doc, keptEntry(p));
}

/**
 * The entry p was read from, when it is frozen (a stored object's) and exactly what encodeManagedFields builds
 * for it: the same members in the same order, nothing else.
 */
function keptEntry(p: PendingManager): ManagedFieldsEntry | undefined {
  const e = p.source;
  if (!Object.isFrozen(e) || e.fieldsType !== 'FieldsV1') return undefined;
  let i = 0;
  for (const key in e) {
    if (!hasOwn(e, key)) return undefined;
    const expected = entryKeyAt(i++, p);
    if (key !== expected) return undefined;
  }
  return entryKeyAt(i, p) === undefined ? (e as unknown as ManagedFieldsEntry) : undefined;
}

/** The i-th key of an encoded entry: manager, operation, apiVersion, time (if any), fieldsType, fieldsV1, subresource (if any). */
function entryKeyAt(i: number, p: PendingManager): string | undefined {
  if (p.time === undefined && i >= 3) i++;
  switch (i) {
    case 0:
      return 'manager';
    case 1:
      return 'operation';
    case 2:
      return 'apiVersion';
    case 3:
      return 'time';
    case 4:
      return 'fieldsType';
    case 5:
      return 'fieldsV1';
    case 6:
      return p.subresource ? 'subresource' : undefined;
    default:
      return undefined;
  }
}

/**
 * The set of a kept manager, never decoded: while fieldsV1 is set, fieldsV1 is the truth (encodeManagedFields
 * reads its emptiness from the document). Nothing may add to it.
 */
const lazySet = new FieldSet();

/**
 * The managed view update() compares. It is managedView without its copy for undefined members: the
 * comparison reads an undefined member as absent and an object of undefined members as {}, as a copy would.
 */
function updateView(obj: Record<string, unknown> | undefined, ctx: FieldManagerContext): Record<string, unknown> {
  if (!obj) return {};
  if (ctx.subresource === 'status') return obj.status === undefined ? {} : { status: obj.status };
  const out: Record<string, unknown> = {};
  for (const key in obj) {
    if (!hasOwn(obj, key) || key === 'apiVersion' || key === 'kind' || (key === 'status' && ctx.hasStatusSubresource)) continue;
    const value = obj[key];
    if (key === 'metadata' && isJsonObject(value)) {
      const metadata: Record<string, unknown> = {};
      let fields = 0;
      for (const f in value) {
        if (!hasOwn(value, f) || strippedMetadata.includes(f)) continue;
        const v = value[f];
        setOwn(metadata, f, v);
        if (v !== undefined) fields++;
      }
      if (fields > 0) out.metadata = metadata;
      continue;
    }
    setOwn(out, key, value);
  }
  return out;
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
