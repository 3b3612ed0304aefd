// Sets of field paths, as sigs.k8s.io/structured-merge-diff/fieldpath keeps them: a trie whose nodes hold
// "members" (paths that end here) and "children" (paths that go deeper). Path elements use the serialised
// form of managedFields: `f:<field>`, `k:{"name":"web"}` (a list item by key), `v:"x"` (a set item) and
// `i:3` (an index). toFieldsV1/fromFieldsV1 convert to and from metadata.managedFields[].fieldsV1.
import { getOwn, hasOwn, isJsonObject, setOwn } from '../json-value';
import { objectFor } from '../sized-object';

export type PathElement = string;
export type FieldPathElements = readonly PathElement[];

/**
 * The document of a leaf (and of "."): one frozen {} shared by every document, since documents are only read
 * once built and `{}` is what it encodes either way.
 */
export const emptyFieldsV1: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

const noMembers: ReadonlySet<PathElement> = new Set();
const noChildren: ReadonlyMap<PathElement, FieldSet> = new Map();

export class FieldSet {
  // Allocated on first insert: most nodes of a set hold only members or only children, and every write
  // through the field manager builds several sets.
  private ownMembers: Set<PathElement> | undefined;
  private ownChildren: Map<PathElement, FieldSet> | undefined;

  get members(): ReadonlySet<PathElement> {
    return this.ownMembers ?? noMembers;
  }

  get children(): ReadonlyMap<PathElement, FieldSet> {
    return this.ownChildren ?? noChildren;
  }

  addMember(pe: PathElement): void {
    (this.ownMembers ??= new Set()).add(pe);
  }

  setChild(pe: PathElement, child: FieldSet): void {
    (this.ownChildren ??= new Map()).set(pe, child);
  }

  static of(paths: Iterable<FieldPathElements>): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  insert(path: FieldPathElements): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) {
      let child = node.ownChildren?.get(path[i]);
      if (!child) {
        child = new FieldSet();
        node.setChild(path[i], child);
      }
      node = child;
    }
    node.addMember(path[path.length - 1]);
  }

  has(path: FieldPathElements): boolean {
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.ownChildren?.get(path[i]);
    return !!node && path.length > 0 && node.members.has(path[path.length - 1]);
  }

  /** Whether the set holds the path itself or anything below it. */
  hasPrefix(path: FieldPathElements): boolean {
    if (this.has(path)) return true;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length && node; i++) node = node.ownChildren?.get(path[i]);
    return !!node && !node.empty();
  }

  empty(): boolean {
    if (this.ownMembers !== undefined && this.ownMembers.size > 0) return false;
    if (this.ownChildren !== undefined) for (const c of this.ownChildren.values()) if (!c.empty()) return false;
    return true;
  }

  /** Whether some path is in both sets. */
  intersects(other: FieldSet): boolean {
    const [small, large] = this.members.size <= other.members.size ? [this, other] : [other, this];
    if (small.ownMembers !== undefined && large.ownMembers !== undefined) {
      for (const m of small.ownMembers) if (large.ownMembers.has(m)) return true;
    }
    if (this.ownChildren === undefined || other.ownChildren === undefined) return false;
    for (const [pe, c] of this.ownChildren) {
      const oc = other.ownChildren.get(pe);
      if (oc && c.intersects(oc)) return true;
    }
    return false;
  }

  /** Whether every path of other is in this set. */
  containsAll(other: FieldSet): boolean {
    if (other.ownMembers !== undefined) for (const m of other.ownMembers) if (!this.members.has(m)) return false;
    if (other.ownChildren !== undefined) {
      for (const [pe, oc] of other.ownChildren) {
        if (oc.empty()) continue;
        const c = this.ownChildren?.get(pe);
        if (!c || !c.containsAll(oc)) return false;
      }
    }
    return true;
  }

  union(other: FieldSet): FieldSet {
    const out = this.copy();
    out.addAll(other);
    return out;
  }

  private addAll(other: FieldSet): void {
    if (other.ownMembers !== undefined) for (const m of other.ownMembers) this.addMember(m);
    if (other.ownChildren === undefined) return;
    for (const [pe, c] of other.ownChildren) {
      let mine = this.ownChildren?.get(pe);
      if (!mine) {
        mine = new FieldSet();
        this.setChild(pe, mine);
      }
      mine.addAll(c);
    }
  }

  /** Paths in this set and not in other (exact paths; a member of other does not remove what lies below it). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (this.ownMembers !== undefined) for (const m of this.ownMembers) if (!other.members.has(m)) out.addMember(m);
    if (this.ownChildren !== undefined) {
      for (const [pe, c] of this.ownChildren) {
        const oc = other.ownChildren?.get(pe);
        const d = oc ? c.difference(oc) : c.copy();
        if (!d.empty()) out.setChild(pe, d);
      }
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (this.ownMembers !== undefined) for (const m of this.ownMembers) if (other.members.has(m)) out.addMember(m);
    if (this.ownChildren !== undefined && other.ownChildren !== undefined) {
      for (const [pe, c] of this.ownChildren) {
        const oc = other.ownChildren.get(pe);
        if (!oc) continue;
        const i = c.intersection(oc);
        if (!i.empty()) out.setChild(pe, i);
      }
    }
    return out;
  }

  copy(): FieldSet {
    const out = new FieldSet();
    if (this.ownMembers !== undefined) out.ownMembers = new Set(this.ownMembers);
    if (this.ownChildren !== undefined) {
      const children = new Map<PathElement, FieldSet>();
      for (const [pe, c] of this.ownChildren) children.set(pe, c.copy());
      out.ownChildren = children;
    }
    return out;
  }

  /** Every member path, depth first in element order. */
  paths(): FieldPathElements[] {
    const out: FieldPathElements[] = [];
    const walk = (node: FieldSet, prefix: PathElement[]): void => {
      for (const pe of sortElements(new Set([...node.members, ...node.children.keys()]))) {
        if (node.members.has(pe)) out.push([...prefix, pe]);
        const c = node.children.get(pe);
        if (c) walk(c, [...prefix, pe]);
      }
    };
    walk(this, []);
    return out;
  }

  /** The fieldsV1 document: {"f:spec":{"f:replicas":{}}}, with "." marking a node that is also a member. */
  toFieldsV1(): Record<string, unknown> {
    return emitDoc(this, false, true)!;
  }

  static fromFieldsV1(doc: unknown): FieldSet {
    const out = new FieldSet();
    if (isJsonObject(doc)) read(out, doc);
    return out;
  }
}

/**
 * Whether the set fromFieldsV1(doc) reads has a path in common with set, found by walking set (usually the
 * few fields one write changed) through doc, so a manager's document need not be decoded to learn that a
 * write leaves it alone.
 */
export function fieldsV1Intersects(doc: unknown, set: FieldSet): boolean {
  if (!isJsonObject(doc)) return false;
  for (const m of set.members) {
    if (m === '.' || !hasOwn(doc, m)) continue;
    if (docMember(doc[m])) return true;
  }
  for (const [pe, c] of set.children) {
    if (pe === '.' || !hasOwn(doc, pe)) continue;
    if (fieldsV1Intersects(doc[pe], c)) return true;
  }
  return false;
}

/** Whether every path of set is in the set fromFieldsV1(doc) reads. */
export function fieldsV1ContainsAll(doc: unknown, set: FieldSet): boolean {
  const d = isJsonObject(doc) ? doc : {};
  for (const m of set.members) {
    if (m === '.' || !hasOwn(d, m) || !docMember(d[m])) return false;
  }
  for (const [pe, c] of set.children) {
    if (c.empty()) continue;
    if (pe === '.' || !hasOwn(d, pe) || !fieldsV1ContainsAll(d[pe], c)) return false;
  }
  return true;
}

/**
 * Whether doc holds exactly the members set.toFieldsV1() would emit (keys in any order, as fieldsV1Equal
 * compares), found by walking set through doc: a recent document can then stand in for encoding the set.
 */
export function fieldsV1Encodes(doc: unknown, set: FieldSet): boolean {
  return isJsonObject(doc) && encodesNode(doc, set, false);
}

/** Whether doc holds what emitDoc(node, withSelf) emits for a node that is not empty (an empty one emits {}). */
function encodesNode(doc: Record<string, unknown>, node: FieldSet, withSelf: boolean): boolean {
  let n = 0;
  if (withSelf) {
    if (!hasOwn(doc, '.') || !isEmptyDoc(doc['.'])) return false;
    n++;
  }
  const members = node.members;
  const children = node.children;
  for (const pe of members) {
    if (!hasOwn(doc, pe) || !encodesChild(doc[pe], children.get(pe), true)) return false;
    n++;
  }
  for (const [pe, child] of children) {
    if (members.has(pe)) continue;
    if (!hasOwn(doc, pe) || !encodesChild(doc[pe], child, false)) return false;
    n++;
  }
  for (const key in doc) if (hasOwn(doc, key) && --n < 0) return false;
  return n === 0;
}

function encodesChild(sub: unknown, child: FieldSet | undefined, member: boolean): boolean {
  if (child === undefined || child.empty()) return isEmptyDoc(sub);
  return isJsonObject(sub) && encodesNode(sub, child, member);
}

function isEmptyDoc(v: unknown): boolean {
  if (!isJsonObject(v)) return false;
  for (const key in v) if (hasOwn(v, key)) return false;
  return true;
}

/**
 * The document of (fromFieldsV1(doc) − minus[0] − minus[1] …) ∪ plus, as toFieldsV1 would emit it, for a
 * canonical doc (isCanonicalFieldsV1): made by walking only the paths minus and plus name, so every subtree they
 * leave alone is doc's own (the new document shares it) and doc itself comes back when nothing changes. A
 * write usually touches a few fields of a manager's set: decoding, copying and re-encoding the whole set cost
 * more than the write's other field-management work together.
 */
export function mergeFieldsV1(doc: Record<string, unknown>, minus: readonly FieldSet[], plus: FieldSet | undefined): Record<string, unknown> {
  return mergeNode(doc, minus, plus, false, true)!;
}

/**
 * One level of mergeFieldsV1: emitDoc's answer for the merged node (undefined: it names nothing), doc being the
 * node's canonical document (undefined: the node is new). withSelf: the node is a member too ("." first).
 */
function mergeNode(doc: Record<string, unknown> | undefined, minus: readonly FieldSet[], plus: FieldSet | undefined, withSelf: boolean, top: boolean): Record<string, unknown> | undefined {
  const d = doc ?? emptyFieldsV1;
  // Only the elements an operand names here can differ from doc; each becomes a document or leaves (undefined).
  let changed: Map<PathElement, Record<string, unknown> | undefined> | undefined;
  // Whether a changed element still names something: it is a member, or its child set is not empty.
  let changedNames = false;
  for (const pe of operandElements(minus, plus)) {
    const sub = hasOwn(d, pe) ? (d[pe] as Record<string, unknown>) : undefined;
    const wasMember = sub !== undefined && docMember(sub);
    const member = (wasMember && !minus.some((m) => m.members.has(pe))) || (plus !== undefined && plus.members.has(pe));
    let childMinus: FieldSet[] | undefined;
    for (const m of minus) {
      const c = m.children.get(pe);
      if (c !== undefined) (childMinus ??= []).push(c);
    }
    const childPlus = plus?.children.get(pe);
    // Untouched below and as a member: doc's own subtree stands (or the element stays absent).
    if (childMinus === undefined && childPlus === undefined && member === wasMember) continue;
    // A child element (a key besides ".") below the element.
    const hadChild = sub !== undefined && !fieldsV1Empty(sub);
    const child = hadChild || childPlus !== undefined ? mergeNode(hadChild ? sub : undefined, childMinus ?? noSets, childPlus, member, false) : undefined;
    // A child that plus brings stays as a key even when it names nothing: emitDoc writes {} for it.
    const next = child ?? (member || childPlus !== undefined ? emptyFieldsV1 : undefined);
    if (member || child !== undefined) changedNames = true;
    // Kept even when next is sub: {} may now be an empty child rather than a member, and name nothing.
    (changed ??= new Map()).set(pe, next);
  }
  if (changed === undefined) {
    if (doc === undefined) return top ? emptyFieldsV1 : undefined;
    return hasOwn(doc, '.') === withSelf ? doc : rebuilt(doc, undefined, withSelf);
  }
  // Every key doc keeps names something (a canonical document has no key that names nothing).
  let names = changedNames;
  for (const key in d) {
    if (names) break;
    if (hasOwn(d, key) && key !== '.' && !changed.has(key)) names = true;
  }
  if (!names && !top) return undefined;
  if (doc !== undefined && hasOwn(doc, '.') === withSelf && sameMembers(doc, changed)) return doc;
  return rebuilt(d, changed, withSelf);
}

/** Whether each changed element's document is doc's own (undefined where doc has none). */
function sameMembers(doc: Record<string, unknown>, changed: Map<PathElement, Record<string, unknown> | undefined>): boolean {
  for (const [pe, v] of changed) if (v !== (hasOwn(doc, pe) ? doc[pe] : undefined)) return false;
  return true;
}

const noSets: readonly FieldSet[] = [];

/** The elements the operands name at one level (members and children), each once; "." is never one. */
function operandElements(minus: readonly FieldSet[], plus: FieldSet | undefined): PathElement[] {
  const out: PathElement[] = [];
  for (let i = 0; i <= minus.length; i++) {
    const s = i < minus.length ? minus[i]! : plus;
    if (s === undefined) continue;
    for (const pe of s.members) if (pe !== '.' && !out.includes(pe)) out.push(pe);
    for (const pe of s.children.keys()) if (pe !== '.' && !out.includes(pe)) out.push(pe);
  }
  return out;
}

/** doc's keys in order, changed ones replaced or dropped (undefined), new ones at their sorted places; "." first when withSelf. */
function rebuilt(doc: Record<string, unknown>, changed: Map<PathElement, Record<string, unknown> | undefined> | undefined, withSelf: boolean): Record<string, unknown> {
  const keys: PathElement[] = withSelf ? ['.'] : [];
  const from = keys.length;
  for (const key in doc) {
    if (!hasOwn(doc, key) || key === '.') continue;
    if (changed === undefined || !changed.has(key) || changed.get(key) !== undefined) keys.push(key);
  }
  if (changed !== undefined) for (const [pe, v] of changed) if (v !== undefined && !hasOwn(doc, pe)) insertSorted(keys, pe, from);
  const out = objectFor(keys);
  for (const pe of keys) setOwn(out, pe, pe === '.' ? emptyFieldsV1 : changed?.has(pe) ? changed.get(pe) : doc[pe]);
  return out;
}

/** Whether fromFieldsV1(doc) reads an empty set: it holds a path for every key but ".". */
export function fieldsV1Empty(doc: unknown): boolean {
  if (!isJsonObject(doc)) return true;
  for (const key in doc) if (hasOwn(doc, key) && key !== '.') return false;
  return true;
}

/** read's test for a path ending at an element: its document is {} (or not an object), or holds ".". */
function docMember(sub: unknown): boolean {
  if (!isJsonObject(sub)) return true;
  if (hasOwn(sub, '.')) return true;
  for (const key in sub) if (hasOwn(sub, key)) return false;
  return true;
}

/**
 * Whether doc is exactly what toFieldsV1 would emit for the set fromFieldsV1 reads from it (same members,
 * same key order, "." only where emit puts it), so it can stand in for a re-encoding of an unchanged set.
 */
export function isCanonicalFieldsV1(doc: unknown): boolean {
  return isJsonObject(doc) && canonicalNode(doc, false);
}

function canonicalNode(doc: Record<string, unknown>, member: boolean): boolean {
  const keys = Object.keys(doc);
  let i = 0;
  if (member && keys.length > 0) {
    // A member that has non-empty children is emitted starting with "." : {}.
    const self = keys[0] === '.' ? getOwn(doc, '.') : undefined;
    if (!isJsonObject(self) || Object.keys(self).length !== 0 || keys.length < 2) return false;
    i = 1;
  }
  for (let prev: string | undefined; i < keys.length; i++) {
    const key = keys[i];
    if (key === '.' || (prev !== undefined && !(compareElements(prev, key) < 0))) return false;
    prev = key;
    const sub = getOwn(doc, key);
    if (!isJsonObject(sub)) return false;
    const subKeys = Object.keys(sub);
    if (subKeys.length === 0) continue;
    if (!canonicalNode(sub, subKeys[0] === '.')) return false;
  }
  return true;
}

/**
 * node's document, or undefined when it names nothing (no member anywhere below) and is not the top one; an
 * empty child still gets its key, as {}. withSelf puts "." first. Emptiness comes back up from the children, so
 * no subtree is walked twice. The object is made once its keys are known, at its final size (objectFor): a
 * document is stored with every version of its object, and one grown member by member keeps a separate
 * property array per object.
 */
function emitDoc(node: FieldSet, withSelf: boolean, top = false): Record<string, unknown> | undefined {
  const members = node.members;
  const children = node.children;
  const keys: PathElement[] = withSelf ? ['.'] : [];
  const from = keys.length;
  for (const pe of members) insertSorted(keys, pe, from);
  for (const pe of children.keys()) if (!members.has(pe)) insertSorted(keys, pe, from);
  // The children's documents first, to learn whether this one names anything.
  let subs: (Record<string, unknown> | undefined)[] | undefined;
  let nonEmpty = members.size > 0;
  if (children.size > 0) {
    subs = new Array(keys.length);
    for (let i = from; i < keys.length; i++) {
      const pe = keys[i]!;
      const child = children.get(pe);
      const sub = child ? emitDoc(child, members.has(pe)) : undefined;
      if (!sub) continue;
      subs[i] = sub;
      nonEmpty = true;
    }
  }
  if (!nonEmpty && !top) return undefined;
  const out = objectFor(keys);
  for (let i = 0; i < keys.length; i++) setOwn(out, keys[i]!, subs?.[i] ?? emptyFieldsV1);
  return out;
}

/** Inserts pe at its place in keys sorted from `from` on: the lists are short, and Array.prototype.sort copies the array. */
function insertSorted(keys: PathElement[], pe: PathElement, from = 0): void {
  let i = keys.length;
  keys.push(pe);
  while (i > from && compareElements(keys[i - 1], pe) > 0) {
    keys[i] = keys[i - 1];
    i--;
  }
  keys[i] = pe;
}

function read(into: FieldSet, doc: Record<string, unknown>): void {
  for (const key of Object.keys(doc)) {
    if (key === '.') continue;
    const v = getOwn(doc, key);
    const sub = isJsonObject(v) ? v : {};
    const keys = Object.keys(sub);
    if (keys.length === 0 || Object.prototype.hasOwnProperty.call(sub, '.')) into.addMember(key);
    if (keys.some((k) => k !== '.')) {
      const child = new FieldSet();
      read(child, sub);
      into.setChild(key, child);
    }
  }
}

const typeRank: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** structured-merge-diff order: field names first (sorted), then keys, values and indices. */
function sortElements(pes: Set<PathElement>): PathElement[] {
  return [...pes].sort(compareElements);
}

export function compareElements(a: PathElement, b: PathElement): number {
  const ra = typeRank[a[0]] ?? 4;
  const rb = typeRank[b[0]] ?? 4;
  if (ra !== rb) return ra - rb;
  if (ra === 3) return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** ".spec.template.spec.containers[name=\"web\"].image", the form conflict messages print. */
export function pathString(path: FieldPathElements): string {
  return path
    .map((pe) => {
      const body = pe.slice(2);
      switch (pe[0]) {
        case 'f':
          return `.${body}`;
        case 'k': {
          const key = JSON.parse(body) as Record<string, unknown>;
          return `[${Object.keys(key)
            .map((k) => `${k}=${typeof key[k] === 'string' ? JSON.stringify(key[k]) : String(key[k])}`)
            .join(',')}]`;
        }
        case 'v':
          return `[=${body}]`;
        case 'i':
          return `[${body}]`;
        default:
          return pe;
      }
    })
    .join('');
}
