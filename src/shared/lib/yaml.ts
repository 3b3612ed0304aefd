// Reading and writing manifests the way kubectl does: YAML 1.1 semantics (go-yaml v2 underneath
// sigs.k8s.io/yaml: `0644` is octal 420, `yes`/`on`/`y` are booleans, dates stay strings), multi-document
// streams, `kind: List` expansion. Input limits are checked before the parser runs.
import {
  type Document,
  LineCounter,
  type Node as YamlNode,
  type ScalarTag,
  type Tags,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  parseDocument,
  Document as YamlDocument,
  Scalar,
  visit,
} from 'yaml';

export const yamlLimits = {
  /** kube-apiserver's request body limit. */
  maxBytes: 3 * 1024 * 1024,
  maxDocuments: 500,
  /**
   * Well above real manifests (~20 levels; deep CRD schemas ~40) and well below the depth at which the YAML
   * composer's recursion overflows a worker's stack (~800 flow levels in V8), so the limit's text is what users see.
   */
  maxDepth: 200,
  /** Alias expansions before yaml refuses the input as a resource-exhaustion attack. */
  maxAliasCount: 100,
} as const;

export interface YamlError {
  message: string;
  /** 1-based, in the whole input. */
  line: number;
  column: number;
  code?: string;
}

/** A mapping key that appears more than once: the last value wins (as in kubectl's YAML reader). */
export interface DuplicateKey {
  /** Strict-decoding path of the key: "spec.replicas", "spec.containers[0].name". */
  path: string;
  line: number;
  column: number;
}

export interface ParsedDocument {
  /** The document as plain JSON-like data; integers beyond 2^53 are BigInt (so nothing is rounded silently). */
  object?: unknown;
  error?: YamlError;
  /** 1-based lines of the document (or List item) in the whole input. */
  range: { startLine: number; endLine: number };
  /** The document's text, from the start of its first line; for a List item, the whole List document. */
  source: string;
  /** Offset of `source` in the whole input. */
  offset: number;
  /** Duplicate mapping keys, with their paths (relative to the item for List items). */
  duplicates?: DuplicateKey[];
  /** Set for objects expanded from a `kind: List` document: the index in its `items`. */
  listItem?: number;
}

// ------------------------------------------------------------------ parse options

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** int tags that yield a Number when exact and a BigInt beyond 2^53, instead of rounding. */
function exactInt(tag: ScalarTag): ScalarTag {
  const resolve = tag.resolve;
  return {
    ...tag,
    resolve: (str, onError, opt) => {
      const v = resolve(str, onError, { ...opt, intAsBigInt: true });
      return typeof v === 'bigint' && v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v;
    },
  };
}

/** go-yaml v2 has no timestamps or sexagesimal numbers when decoding into interface{}: they stay strings. */
function kubectlTags(tags: Tags): Tags {
  return tags
    .filter((t) => {
      const st = t as ScalarTag;
      return st.tag !== 'tag:yaml.org,2002:timestamp' && st.format !== 'TIME';
    })
    .map((t) => {
      const st = t as ScalarTag;
      return st.tag === 'tag:yaml.org,2002:int' && typeof st.resolve === 'function' && !('collection' in st) ? exactInt(st) : t;
    });
}

const parseOptions = {
  version: '1.1' as const,
  customTags: kubectlTags,
  uniqueKeys: false,
  prettyErrors: true,
  merge: true,
  strict: true,
};

// ------------------------------------------------------------------ limits

export interface LimitCheck {
  error?: string;
  documents: number;
  depth: number;
}

/**
 * A cheap scan for the input limits, before any parser allocates: byte size, document count (`---` lines) and
 * nesting depth (block indentation levels + inline `- ` entries + open flow brackets; block scalars skipped).
 */
export function checkYamlLimits(text: string, limits: typeof yamlLimits = yamlLimits): LimitCheck {
  if (utf8Exceeds(text, limits.maxBytes)) {
    return { error: `input is too large: more than ${limits.maxBytes} bytes (the API server's request size limit)`, documents: 0, depth: 0 };
  }
  let documents = 0;
  let contentBeforeFirstMarker = false;
  let maxDepth = 0;
  const indents: number[] = [];
  let flow = 0;
  let quote: '"' | "'" | null = null;
  let blockScalarIndent = -1; // lines indented more than this belong to a block scalar
  const n = text.length;
  for (let pos = 0; pos < n; ) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0) eol = n;
    let indent = 0;
    while (pos + indent < eol && text[pos + indent] === ' ') indent++;
    const first = pos + indent;
    const blank = first >= eol || text[first] === '#' || text[first] === '\r';
    const lineStart = pos;
    pos = eol + 1;
    if (blockScalarIndent >= 0) {
      if (blank || indent > blockScalarIndent) continue;
      blockScalarIndent = -1;
    }
    if (blank && !quote) continue;
    let i = first;
    if (quote === null && indent === 0 && text.startsWith('---', lineStart) && (first + 3 >= eol || /\s/.test(text[first + 3]))) {
      documents++;
      if (documents > limits.maxDocuments) return { error: `too many documents: more than ${limits.maxDocuments} (the limit is ${limits.maxDocuments})`, documents, depth: maxDepth };
      indents.length = 0;
      flow = 0;
      i = first + 3;
    } else if (documents === 0 && !contentBeforeFirstMarker) {
      contentBeforeFirstMarker = true;
      documents = 1;
    }
    let depth = 0;
    if (quote === null && flow === 0 && i === first) {
      while (indents.length && indents[indents.length - 1] >= indent) indents.pop();
      indents.push(indent);
      // "- - - x": each inline sequence entry nests once more
      while (i + 1 < eol && text[i] === '-' && (text[i + 1] === ' ' || text[i + 1] === '\t')) {
        depth++;
        i += 2;
        while (i < eol && text[i] === ' ') i++;
      }
    }
    for (; i < eol; i++) {
      const c = text[i];
      if (quote) {
        if (c === quote) {
          if (quote === "'" && text[i + 1] === "'") i++;
          else quote = null;
        } else if (c === '\\' && quote === '"') i++;
        continue;
      }
      if (c === '"' || c === "'") {
        if (i === first || /[\s[{,:]/.test(text[i - 1])) quote = c;
      } else if (c === '#' && (i === first || /\s/.test(text[i - 1]))) {
        break;
      } else if (c === '[' || c === '{') {
        flow++;
        maxDepth = Math.max(maxDepth, indents.length + depth + flow);
      } else if ((c === ']' || c === '}') && flow > 0) {
        flow--;
      }
    }
    maxDepth = Math.max(maxDepth, indents.length + depth + flow);
    if (maxDepth > limits.maxDepth) {
      return { error: `input is nested too deeply: more than ${limits.maxDepth} levels (the limit is ${limits.maxDepth})`, documents, depth: maxDepth };
    }
    // "key: |", "key: >-", "- |2": the lines after it are scalar text, not structure.
    if (quote === null && flow === 0 && /(?:^|[\s:-])[|>][0-9+-]*\s*(?:#.*)?\r?$/.test(text.slice(first, eol))) blockScalarIndent = indent;
  }
  return { documents, depth: maxDepth };
}

/** Whether the UTF-8 encoding of text is longer than max bytes (without encoding it). */
function utf8Exceeds(text: string, max: number): boolean {
  if (text.length > max) return true;
  if (text.length * 3 <= max) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}

// ------------------------------------------------------------------ parsing

/** Splits a (multi-document) manifest into objects, as `kubectl apply -f` reads a file. Never throws. */
export function parseManifests(text: string): ParsedDocument[] {
  const lc = new LineCounter();
  const lineOf = (offset: number) => lc.linePos(offset);
  const limit = checkYamlLimits(text);
  if (limit.error) {
    return [{ error: { message: limit.error, line: 1, column: 1, code: 'LIMIT' }, range: { startLine: 1, endLine: 1 }, source: '', offset: 0 }];
  }
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { ...parseOptions, lineCounter: lc }) as Document.Parsed[];
  } catch (err) {
    return [{ error: { message: errorMessage(err), line: 1, column: 1 }, range: { startLine: 1, endLine: 1 }, source: text, offset: 0 }];
  }
  if (!Array.isArray(docs)) return [];
  const out: ParsedDocument[] = [];
  for (const doc of docs) {
    const [docStart, , end] = doc.range;
    // The document begins at its content (after any `---` line and leading comments), from the start of that line.
    const start = doc.contents?.range?.[0] ?? docStart;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const source = text.slice(lineStart, end);
    const range = { startLine: lineOf(start).line, endLine: lineOf(Math.max(start, end - 1)).line };
    const base = { range, source, offset: lineStart };
    if (doc.errors.length > 0) {
      out.push({ ...base, error: yamlError(doc.errors[0], lineOf) });
      continue;
    }
    if (doc.contents === null) continue; // empty document, or only comments
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: yamlLimits.maxAliasCount });
    } catch (err) {
      out.push({ ...base, error: { message: errorMessage(err), ...posOf(doc.contents, lineOf) } });
      continue;
    }
    if (value === null || value === undefined) continue;
    const dups = collectDuplicates(doc.contents, lineOf);
    const items = listItems(value, doc.contents);
    if (items) {
      items.forEach(({ item, node }, i) => {
        const itemRange = node?.range ? { startLine: lineOf(node.range[0]).line, endLine: lineOf(Math.max(node.range[0], node.range[1] - 1)).line } : range;
        const prefix = `items[${i}].`;
        const itemDups = dups.list.filter((d) => d.path.startsWith(prefix)).map((d) => ({ ...d, path: d.path.slice(prefix.length) }));
        const parsed: ParsedDocument = { object: item, range: itemRange, source, offset: lineStart, listItem: i };
        if (itemDups.length) parsed.duplicates = itemDups;
        out.push(parsed);
      });
      continue;
    }
    const parsed: ParsedDocument = { ...base, object: value };
    if (dups.list.length) parsed.duplicates = dups.list;
    out.push(parsed);
  }
  return out;
}

/** kubectl flattens list objects (kind List, PodList, …: anything with an `items` array) into their items. */
function listItems(value: unknown, node: YamlNode | null): { item: unknown; node?: YamlNode }[] | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as { kind?: unknown; items?: unknown };
  if (typeof v.kind !== 'string' || !v.kind.endsWith('List') || !Array.isArray(v.items)) return undefined;
  const itemsNode = isMap(node) ? node.get('items', true) : undefined;
  return v.items.map((item, i) => ({ item, node: isSeq(itemsNode) ? (itemsNode.items[i] as YamlNode | undefined) : undefined }));
}

export interface ParsedValue {
  value?: unknown;
  error?: YamlError;
  duplicates: DuplicateKey[];
  /** For each mapping with duplicates, by path ("" = root): its keys in document order, repeats included. */
  keyOrder: Map<string, string[]>;
}

/** Parses a single YAML document (the first one, as the API server reads a YAML body). */
export function parseYamlDocument(text: string): ParsedValue {
  const limit = checkYamlLimits(text);
  if (limit.error) return { error: { message: limit.error, line: 1, column: 1, code: 'LIMIT' }, duplicates: [], keyOrder: new Map() };
  const lc = new LineCounter();
  const lineOf = (offset: number) => lc.linePos(offset);
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { ...parseOptions, lineCounter: lc }) as Document.Parsed[];
  } catch (err) {
    return { error: { message: errorMessage(err), line: 1, column: 1 }, duplicates: [], keyOrder: new Map() };
  }
  const doc = Array.isArray(docs) ? docs.find((d) => d.errors.length > 0 || d.contents !== null) : undefined;
  if (!doc) return { value: null, duplicates: [], keyOrder: new Map() };
  if (doc.errors.length > 0) return { error: yamlError(doc.errors[0], lineOf), duplicates: [], keyOrder: new Map() };
  try {
    const value = doc.toJS({ maxAliasCount: yamlLimits.maxAliasCount });
    const dups = collectDuplicates(doc.contents, lineOf);
    return { value, duplicates: dups.list, keyOrder: dups.keyOrder };
  } catch (err) {
    return { error: { message: errorMessage(err), ...posOf(doc.contents, lineOf) }, duplicates: [], keyOrder: new Map() };
  }
}

function yamlError(e: { message: string; code?: string; linePos?: [{ line: number; col: number }] | [{ line: number; col: number }, { line: number; col: number }]; pos: [number, number] }, lineOf: (o: number) => { line: number; col: number }): YamlError {
  const lp = e.linePos?.[0] ?? lineOf(e.pos[0]);
  return { message: e.message, line: lp.line, column: lp.col, code: e.code };
}

function posOf(node: YamlNode | null, lineOf: (o: number) => { line: number; col: number }): { line: number; column: number } {
  const p = node?.range ? lineOf(node.range[0]) : { line: 1, col: 1 };
  return { line: p.line, column: p.col };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function scalarKey(key: unknown): string | undefined {
  if (isScalar(key)) {
    const v = key.value;
    if (v === null) return '';
    if (typeof v === 'object') return undefined;
    return String(v);
  }
  return undefined;
}

function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.value === '<<' && (key.type === 'PLAIN' || key.type === undefined);
}

/** Finds repeated mapping keys, with strict-decoding paths (`a.b[0].c`) and key positions. */
function collectDuplicates(root: YamlNode | null, lineOf: (o: number) => { line: number; col: number }): { list: DuplicateKey[]; keyOrder: Map<string, string[]> } {
  const list: DuplicateKey[] = [];
  const keyOrder = new Map<string, string[]>();
  const walk = (node: unknown, path: string): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      const order: string[] = [];
      let dup = false;
      for (const pair of node.items) {
        if (isMergeKey(pair.key)) continue;
        const k = scalarKey(pair.key);
        if (k === undefined) continue;
        order.push(k);
        const childPath = path ? `${path}.${k}` : k;
        if (seen.has(k)) {
          dup = true;
          const p = isScalar(pair.key) && pair.key.range ? lineOf(pair.key.range[0]) : { line: 1, col: 1 };
          list.push({ path: childPath, line: p.line, column: p.col });
        }
        seen.add(k);
        walk(pair.value, childPath);
      }
      if (dup) keyOrder.set(path, order);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, `${path}[${i}]`));
    }
  };
  walk(root, '');
  return { list, keyOrder };
}

// ------------------------------------------------------------------ field paths → positions

export interface SourcePosition {
  /** 1-based, in the whole input (the document's range.startLine is applied). */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** false when the path does not exist and this is its deepest existing ancestor. */
  exact: boolean;
}

/** "spec.containers[0].image", "metadata.labels[app.kubernetes.io/name]", ".spec.x" → path segments. */
export function parseFieldPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  let i = path.startsWith('.') ? 1 : 0;
  let cur = '';
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      if (cur) out.push(cur);
      cur = '';
      i++;
    } else if (c === '[') {
      if (cur) out.push(cur);
      cur = '';
      const close = path.indexOf(']', i);
      const inner = close < 0 ? path.slice(i + 1) : path.slice(i + 1, close);
      out.push(/^[0-9]+$/.test(inner) ? Number(inner) : inner);
      i = close < 0 ? path.length : close + 1;
    } else {
      cur += c;
      i++;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * Where a field path (as in field errors: `spec.template.spec.containers[0].image`) is in a parsed document's
 * source: the key of the field, or its deepest existing ancestor when the field is absent.
 */
export function locateFieldPath(doc: Pick<ParsedDocument, 'source' | 'offset' | 'range' | 'listItem'>, path: string): SourcePosition | undefined {
  const lc = new LineCounter();
  let parsed: YamlDocument.Parsed;
  try {
    parsed = parseDocument(doc.source, { ...parseOptions, lineCounter: lc });
  } catch {
    return undefined;
  }
  const firstLine = lineNumberAt(doc);
  const segments = parseFieldPath(path);
  if (doc.listItem !== undefined) segments.unshift('items', doc.listItem);
  let node: unknown = parsed.contents;
  let anchor: { start: number; end: number } | undefined = rangeOf(node);
  let exact = true;
  for (const seg of segments) {
    let next: unknown;
    let keyNode: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && scalarKey(p.key) === String(seg));
      if (pair) {
        next = pair.value;
        keyNode = pair.key;
      }
    } else if (isSeq(node) && typeof seg === 'number') {
      next = node.items[seg];
    }
    if (isAlias(next)) next = next.resolve(parsed);
    if (next === undefined && keyNode === undefined) {
      exact = false;
      break;
    }
    const keyRange = rangeOf(keyNode);
    const valueRange = rangeOf(next);
    if (keyRange) anchor = { start: keyRange.start, end: valueRange?.end ?? keyRange.end };
    else if (valueRange) anchor = valueRange;
    node = next;
  }
  if (!anchor) return undefined;
  const s = lc.linePos(anchor.start);
  const e = lc.linePos(Math.max(anchor.start, anchor.end));
  return { line: s.line + firstLine - 1, column: s.col, endLine: e.line + firstLine - 1, endColumn: e.col, exact };
}

function rangeOf(node: unknown): { start: number; end: number } | undefined {
  const r = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return r ? { start: r[0], end: r[1] } : undefined;
}

/** The 1-based line in the whole input where doc.source begins. */
function lineNumberAt(doc: Pick<ParsedDocument, 'range' | 'listItem' | 'source'>): number {
  if (doc.listItem === undefined) return doc.range.startLine;
  // For List items range is the item's; the source starts at the List document, whose first line we recover
  // from the item's position inside the source.
  return doc.range.startLine - itemLineInSource(doc.source, doc.listItem) + 1;
}

function itemLineInSource(source: string, index: number): number {
  const lc = new LineCounter();
  const d = parseDocument(source, { ...parseOptions, lineCounter: lc });
  const items = isMap(d.contents) ? d.contents.get('items', true) : undefined;
  const item = isSeq(items) ? (items.items[index] as YamlNode | undefined) : undefined;
  return item?.range ? lc.linePos(item.range[0]).line : 1;
}

// ------------------------------------------------------------------ output

export interface ToYamlOptions {
  /** Sort mapping keys, as kubectl's output does (default true). */
  sortKeys?: boolean;
}

/**
 * kubectl-like YAML: 2-space indent, sequences not indented under their key, keys sorted, no line folding,
 * strings that would read back as another type double-quoted ("yes", "1"), others single-quoted when they need
 * quoting, multi-line strings as literal blocks.
 */
export function toYaml(value: unknown, options: ToYamlOptions = {}): string {
  const doc = new YamlDocument(value, { version: '1.1', customTags: kubectlTags, sortMapEntries: options.sortKeys ?? true });
  const tags = doc.schema.tags.filter((t) => (t as ScalarTag).test && t.tag !== 'tag:yaml.org,2002:str') as ScalarTag[];
  visit(doc, {
    Scalar(_key, node: Scalar) {
      if (typeof node.value === 'string' && !node.value.includes('\n') && tags.some((t) => t.test?.test(node.value as string))) {
        node.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  return doc.toString({ indent: 2, indentSeq: false, lineWidth: 0, minContentWidth: 0, singleQuote: true, nullStr: 'null' });
}
