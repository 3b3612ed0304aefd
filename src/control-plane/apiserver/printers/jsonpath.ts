// The Kubernetes JSONPath dialect (k8s.io/client-go/util/jsonpath), over plain JSON values. The API server uses it
// for CRD additionalPrinterColumns; kubectl for -o jsonpath, custom-columns and --sort-by.
//
//   const jp = parseJsonPath('{range .items[*]}{.metadata.name}{"\n"}{end}');
//   executeJsonPath(jp, list)                      // "web-0\nweb-1\n"
//   findResults(parseJsonPath('{.spec.containers[?(@.name=="app")].image}'), pod)   // [["nginx:1.27"]]
//
// Templates mix text and {actions}. Actions: .field (dots in keys escaped as \.), ['key'], [n], [start:end:step],
// [*], [a,b] unions, .. recursive descent, [?(@.x=="y")] filters (==, !=, <, >, <=, >=, or existence), "quoted"
// text, range/end. Results print as client-go prints them: values of one action joined by spaces, maps and
// slices as compact JSON, strings raw, null as "null".
import { goJson } from './go-json';

export class JsonPathError extends Error {}

type Node =
  | { type: 'list'; nodes: Node[] }
  | { type: 'text'; text: string }
  | { type: 'field'; value: string }
  | { type: 'identifier'; name: string }
  | { type: 'array'; params: ArrayParams }
  | { type: 'filter'; left: Node & { type: 'list' }; right: Node & { type: 'list' }; operator: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: (Node & { type: 'list' })[] };

type ListNode = Node & { type: 'list' };

interface ParamsEntry {
  value: number;
  known: boolean;
  derived: boolean;
}
type ArrayParams = [ParamsEntry, ParamsEntry, ParamsEntry];

/** A parsed template. */
export interface JsonPath {
  readonly source: string;
  readonly root: ListNode;
}

// ---------------------------------------------------------------- parser

const eof = '';
const dictKeyRex = /^'([^']*)'$/;
const sliceOperatorRex = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const filterRex = /^([^!<>=]+)([!<>=]+)(.+?)$/;

class Parser {
  private input = '';
  private pos = 0;
  private start = 0;
  private width = 0;
  root: ListNode = { type: 'list', nodes: [] };

  parse(text: string): ListNode {
    this.input = text;
    this.root = { type: 'list', nodes: [] };
    this.pos = 0;
    this.start = 0;
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return eof;
    }
    const cp = this.input.codePointAt(this.pos)!;
    const ch = String.fromCodePoint(cp);
    this.width = ch.length;
    this.pos += this.width;
    return ch;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
        this.parseLeftDelim(cur);
        return;
      }
      if (this.next() === eof) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
  }

  private parseLeftDelim(cur: ListNode): void {
    this.pos += 1;
    this.consumeText();
    const node: ListNode = { type: 'list', nodes: [] };
    cur.nodes.push(node);
    this.parseInsideAction(node);
  }

  private parseInsideAction(cur: ListNode): void {
    // Iterative where Go recurses: each branch either returns (the action ended) or continues the loop.
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === eof || r === '\r' || r === '\n') throw new JsonPathError('unclosed action');
      if (r === ' ') {
        this.consumeText();
      } else if (r === '@' || r === '$') {
        this.consumeText();
      } else if (r === '[') {
        this.parseArray(cur);
      } else if (r === '"' || r === "'") {
        this.parseQuote(cur, r);
      } else if (r === '.') {
        this.parseField(cur);
      } else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        throw new JsonPathError(`unrecognized character in action: ${goRuneDebug(r)}`);
      }
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last?.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    let r = this.peek();
    if (r === '+' || r === '-') this.next();
    for (;;) {
      r = this.next();
      if (r !== '.' && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value)) {
      cur.nodes.push({ type: 'int', value: Number(value) });
      return;
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) {
      cur.nodes.push({ type: 'float', value: Number(value) });
      return;
    }
    throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new JsonPathError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText();
    text = text.slice(1, -1);
    if (text === '*') text = ':';

    const strs = text.split(',');
    if (strs.length > 1) {
      const union: ListNode[] = strs.map((s) => parseAction(`[${s.trim()}]`));
      cur.nodes.push({ type: 'union', nodes: union });
      return;
    }

    const dict = dictKeyRex.exec(text);
    if (dict) {
      const parsed = parseAction(`.${dict[1]}`);
      cur.nodes.push(...parsed.nodes);
      return;
    }

    const m = sliceOperatorRex.exec(text);
    if (!m) throw new JsonPathError(`invalid array index ${text}`);
    const values = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: ArrayParams = [
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
      { value: 0, known: false, derived: false },
    ];
    for (let i = 0; i < 3; i++) {
      let v = values[i];
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') {
          params[i].known = false;
        } else {
          if (!/^-?\d+$/.test(v)) throw new JsonPathError(`array index ${v} is not a number`);
          params[i].known = true;
          params[i].value = Number(v);
        }
      } else if (i === 1) {
        params[i].known = true;
        params[i].value = params[0].value + 1;
        params[i].derived = true;
      }
    }
    cur.nodes.push({ type: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')') {
        if (begin === end) break;
      }
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
    let text = this.consumeText();
    text = text.slice(0, -2);
    const m = filterRex.exec(text);
    if (!m) {
      cur.nodes.push({ type: 'filter', left: parseAction(text), right: { type: 'list', nodes: [] }, operator: 'exists' });
    } else {
      cur.nodes.push({ type: 'filter', left: parseAction(m[1]), right: parseAction(m[3]), operator: m[2] });
    }
  }

  private parseQuote(cur: ListNode, end: string): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new JsonPathError('unterminated quoted string');
      if (r === end && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    cur.nodes.push({ type: 'text', text: unquoteExtend(value) });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance()) {
      // consume the field name
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', value: value.replace(/\\/g, '') });
  }

  private advance(): boolean {
    const r = this.next();
    if (r === '\\') {
      this.next();
    } else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** Parses "{text}" and returns the action's list (parseAction). */
function parseAction(text: string): ListNode {
  const root = new Parser().parse(`{${text}}`);
  return root.nodes[0] as ListNode;
}

function isTerminator(r: string): boolean {
  return r === eof || r === ' ' || r === '\t' || r === '\r' || r === '\n' || '.,[]$@{}'.includes(r);
}

function isDigit(r: string): boolean {
  return r.length > 0 && /\p{Nd}/u.test(r);
}

function isAlphaNumeric(r: string): boolean {
  return r === '_' || (r.length > 0 && /[\p{L}\p{Nd}]/u.test(r));
}

/** %#U: "U+0023 '#'". */
function goRuneDebug(r: string): string {
  const cp = r.codePointAt(0)!;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

/** strconv.UnquoteChar-based unquoting of a '…' or "…" string. */
function unquoteExtend(s: string): string {
  const fail = (): never => {
    throw new JsonPathError(`unquote string ${s} error invalid syntax`);
  };
  if (s.length < 2) fail();
  const quoteChar = s[0];
  if (quoteChar !== s[s.length - 1] || (quoteChar !== '"' && quoteChar !== "'")) fail();
  const body = s.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === quoteChar) fail();
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    switch (e) {
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case '\\':
        out += '\\';
        break;
      case "'":
      case '"':
        if (e !== quoteChar) fail();
        out += e;
        break;
      case 'x':
      case 'u':
      case 'U': {
        const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = body.slice(i + 1, i + 1 + n);
        if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(hex)) fail();
        out += String.fromCodePoint(parseInt(hex, 16));
        i += n;
        break;
      }
      default:
        if (e !== undefined && /[0-7]/.test(e)) {
          const oct = body.slice(i, i + 3);
          if (!/^[0-7]{3}$/.test(oct)) fail();
          out += String.fromCharCode(parseInt(oct, 8));
          i += 2;
        } else {
          fail();
        }
    }
  }
  return out;
}

/** Parses a template ("{.metadata.name}", "name: {.metadata.name}{'\n'}"). Throws JsonPathError. */
export function parseJsonPath(template: string): JsonPath {
  return { source: template, root: new Parser().parse(template) };
}

// ---------------------------------------------------------------- evaluation

export interface JsonPathOptions {
  /** Missing map keys yield nothing instead of "<key> is not found" (kubectl's default for -o jsonpath). */
  allowMissingKeys?: boolean;
}

/** One value found: the JSON value, or the marker for a Go nil (a JSON null). */
type Value = unknown;

/** A step of the template at top level: text/actions, or a range block. */
type Step = { kind: 'node'; node: Node } | { kind: 'range'; expr: ListNode; body: Step[] };

function isRangeStart(node: Node): node is ListNode {
  return node.type === 'list' && node.nodes[0]?.type === 'identifier' && node.nodes[0].name === 'range';
}

function isRangeEnd(node: Node): boolean {
  return node.type === 'list' && node.nodes.length > 0 && node.nodes[0]?.type === 'identifier' && node.nodes[0].name === 'end';
}

/** Groups {range …}…{end} blocks (nested) into steps. */
function structure(nodes: Node[], from: number, inRange: boolean): { steps: Step[]; next: number } {
  const steps: Step[] = [];
  let i = from;
  while (i < nodes.length) {
    const node = nodes[i];
    if (isRangeEnd(node)) {
      if (!inRange) throw new JsonPathError('not in range, nothing to end');
      return { steps, next: i + 1 };
    }
    if (isRangeStart(node)) {
      const inner = structure(nodes, i + 1, true);
      steps.push({ kind: 'range', expr: { type: 'list', nodes: node.nodes.slice(1) }, body: inner.steps });
      i = inner.next;
      continue;
    }
    steps.push({ kind: 'node', node });
    i++;
  }
  return { steps, next: i };
}

class Evaluator {
  constructor(private readonly options: JsonPathOptions) {}

  run(steps: Step[], data: Value, out: Value[][]): void {
    for (const step of steps) {
      if (step.kind === 'node') {
        out.push(this.walk([data], step.node));
        continue;
      }
      const results = this.walk([data], step.expr);
      for (const value of results) this.run(step.body, value, out);
    }
  }

  walk(input: Value[], node: Node): Value[] {
    switch (node.type) {
      case 'list': {
        let cur = input;
        for (const n of node.nodes) cur = this.walk(cur, n);
        return cur;
      }
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.value);
      case 'array':
        return this.evalArray(input, node.params);
      case 'filter':
        return this.evalFilter(input, node);
      case 'int':
      case 'float':
      case 'bool':
        return input.map(() => node.value);
      case 'wildcard':
        return input.flatMap((v) => children(v));
      case 'recursive':
        return this.evalRecursive(input);
      case 'union':
        return node.nodes.flatMap((n) => this.walk(input, n));
      case 'identifier':
        if (node.name === 'range' || node.name === 'end') throw new JsonPathError('not in range, nothing to end');
        throw new JsonPathError(`unrecognized identifier ${node.name}`);
    }
  }

  private evalField(input: Value[], key: string): Value[] {
    const results: Value[] = [];
    if (input.length === 0) return results;
    for (const v of input) {
      if (v === null || v === undefined) continue;
      if (isMap(v) && Object.hasOwn(v, key)) results.push(v[key]);
    }
    if (results.length === 0 && !this.options.allowMissingKeys) throw new JsonPathError(`${key} is not found`);
    return results;
  }

  private evalArray(input: Value[], node: ArrayParams): Value[] {
    const result: Value[] = [];
    for (const v of input) {
      if (v === null || v === undefined) continue;
      if (!Array.isArray(v)) throw new JsonPathError(`${goTypeName(v)} is not array or slice`);
      const params = node.map((p) => ({ ...p }));
      const len = v.length;
      if (!params[0].known) params[0].value = 0;
      if (params[0].value < 0) params[0].value += len;
      if (!params[1].known) params[1].value = len;
      if (params[1].value < 0 || (params[1].value === 0 && params[1].derived)) params[1].value += len;
      if (params[1].value === params[0].value) return result;
      if (params[0].value >= len || params[0].value < 0) throw new JsonPathError(`array index out of bounds: index ${params[0].value}, length ${len}`);
      if (params[1].value > len || params[1].value < 0) throw new JsonPathError(`array index out of bounds: index ${params[1].value - 1}, length ${len}`);
      if (params[0].value > params[1].value) throw new JsonPathError(`starting index ${params[0].value} is greater than ending index ${params[1].value}`);
      const slice = v.slice(params[0].value, params[1].value);
      let step = 1;
      if (params[2].known) {
        if (params[2].value <= 0) throw new JsonPathError('step must be > 0');
        step = params[2].value;
      }
      for (let i = 0; i < slice.length; i += step) result.push(slice[i]);
    }
    return result;
  }

  private evalRecursive(input: Value[]): Value[] {
    const result: Value[] = [];
    for (const v of input) {
      if (v === null || v === undefined) continue;
      const kids = children(v);
      if (kids.length !== 0) {
        result.push(v);
        result.push(...this.evalRecursive(kids));
      }
    }
    return result;
  }

  private evalFilter(input: Value[], node: Node & { type: 'filter' }): Value[] {
    const results: Value[] = [];
    for (const v of input) {
      if (!Array.isArray(v)) throw new JsonPathError(`${goSprint(v)} is not array or slice and cannot be filtered`);
      for (const item of v) {
        let lefts: Value[];
        let leftError: unknown;
        try {
          lefts = this.walk([item], node.left);
        } catch (err) {
          lefts = [];
          leftError = err;
        }
        if (node.operator === 'exists') {
          if (lefts.length > 0) results.push(item);
          continue;
        }
        if (leftError) throw leftError;
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
        const rights = this.walk([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
        if (compare(lefts[0], rights[0], node.operator)) results.push(item);
      }
    }
    return results;
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A container's elements, maps in key order (Go's order is random; sorted keeps output stable). */
function children(v: Value): Value[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.keys(v).sort().map((k) => v[k]);
  if (typeof v === 'string') return [...new TextEncoder().encode(v)];
  return [];
}

function basicKind(v: Value): 'string' | 'number' | 'bool' {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  throw new JsonPathError('invalid type for comparison');
}

/** text/template's eq/ne/lt/le/gt/ge on basic kinds. */
function compare(left: Value, right: Value, op: string): boolean {
  const k1 = basicKind(left);
  const k2 = basicKind(right);
  if (k1 !== k2) throw new JsonPathError('incompatible types for comparison');
  switch (op) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
  }
  if (k1 === 'bool') throw new JsonPathError('invalid type for comparison');
  const a = left as string | number;
  const b = right as string | number;
  switch (op) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
    default:
      throw new JsonPathError(`unrecognized filter operator ${op}`);
  }
}

/** FindResults: the values each top-level action (or range iteration's action) yields. */
export function findResults(jp: JsonPath, data: unknown, options: JsonPathOptions = {}): unknown[][] {
  const { steps } = structure(jp.root.nodes, 0, false);
  const out: Value[][] = [];
  new Evaluator(options).run(steps, data, out);
  return out;
}

/** PrintResults of one action's values: space-separated; maps/slices as compact JSON; asJson: one indented array. */
export function printResults(results: unknown[], asJson = false): string {
  if (asJson) return `${goJson(results, '    ')}\n`;
  return results.map((r) => (r !== null && typeof r === 'object' ? goJson(r) : goSprint(r === null ? null : r, true))).join(' ');
}

/** Execute: the template's output for data. */
export function executeJsonPath(jp: JsonPath, data: unknown, options: JsonPathOptions & { asJson?: boolean } = {}): string {
  return findResults(jp, data, options)
    .map((r) => printResults(r, options.asJson))
    .join('');
}

/**
 * fmt.Sprint of a JSON value as Go holds it (map[string]interface{}, []interface{}, string, int64/float64, bool,
 * nil): "map[a:1 b:x]", "[a b]", "<nil>". nullAsText: evalToText prints a nil interface as "null".
 */
export function goSprint(v: unknown, nullAsText = false): string {
  if (v === null || v === undefined) return nullAsText ? 'null' : '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map((x) => goSprint(x)).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goSprint(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

/** %v of an int64 (whole JSON numbers decode as int64) or a float64. */
export function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** The Go type name reflect prints for a JSON value ("string", "map[string]interface {}"). */
function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (isMap(v)) return 'map[string]interface {}';
  return 'interface {}';
}

/** %#v of a JSON value as Go holds it, for kubectl's "object given to jsonpath engine was" dump. */
export function goSyntax(v: unknown, inInterface = false): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSyntax(x, true)).join(', ')}}`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[string]interface {}{${keys.map((k) => `${JSON.stringify(k)}:${goSyntax(v[k], true)}`).join(', ')}}`;
  }
  return inInterface ? String(v) : String(v);
}

/**
 * kubectl explain's jsonPathParse: "pods.spec.containers" read as "{.pods.spec.containers}", returning the
 * action's nodes as field names (null for a node that is not a field, e.g. "[0]"). Throws JsonPathError.
 */
export function explainPathNodes(input: string): (string | null)[] {
  const trimmed = input.endsWith('.') ? input.slice(0, -1) : input;
  const root = new Parser().parse(`{.${trimmed}}`);
  if (root.nodes.length !== 1) throw new JsonPathError('must pass in 1 jsonpath string');
  const action = root.nodes[0] as ListNode;
  return action.nodes.map((n) => (n.type === 'field' ? n.value : null));
}
