// Label selectors (apimachinery/pkg/labels/selector.go), metav1.LabelSelector conversion (meta/v1/helpers.go)
// and field selectors (apimachinery/pkg/fields/selector.go): same grammar, same sorting, same error texts.
// Selectors are plain data so they can be kept in caches and sent across the worker boundary.
import type { LabelSelector } from '../api/types';
import { isQualifiedName, isValidLabelValue } from './validation';

export const SelectorOperator = {
  DoesNotExist: '!',
  Equals: '=',
  DoubleEquals: '==',
  In: 'in',
  NotEquals: '!=',
  NotIn: 'notin',
  Exists: 'exists',
  GreaterThan: 'gt',
  LessThan: 'lt',
} as const;
export type SelectorOperator = (typeof SelectorOperator)[keyof typeof SelectorOperator];

// The order NotSupported lists them in (binary operators, then unary), as selector.go builds it.
const validRequirementOperators: readonly string[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

export interface Requirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

/**
 * A parsed label selector. `nothing` is labels.Nothing() (a nil metav1.LabelSelector: matches no object);
 * an empty requirement list is labels.Everything().
 */
export interface Selector {
  requirements: Requirement[];
  nothing?: true;
}

export type Labels = Readonly<Record<string, string>> | undefined | null;

/** A selector string that labels.Parse rejects; the message is exactly the Go error text. */
export class SelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SelectorParseError';
  }
}

function has(labels: Labels, key: string): boolean {
  return !!labels && Object.prototype.hasOwnProperty.call(labels, key);
}

function get(labels: Labels, key: string): string {
  return has(labels, key) ? (labels as Record<string, string>)[key] : '';
}

/** Go's %#v of a []string, which is how NewRequirement renders the values in its errors. */
function goStringSlice(values: string[] | null): string {
  if (values === null) return '[]string(nil)';
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** Field path rendering as in field.Path: a nil path prints "<nil>". */
function fieldErrorText(path: string, badValue: string, detail: string): string {
  return `${path}: Invalid value: ${badValue}: ${detail}`;
}

function aggregate(msgs: string[]): string {
  const unique = [...new Set(msgs)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

function labelKeyError(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? fieldErrorText(path, JSON.stringify(key), errs.join('; ')) : undefined;
}

function labelValueError(key: string, value: string, path: string): string | undefined {
  const errs = isValidLabelValue(value);
  return errs.length ? fieldErrorText(`${path}[${key}]`, JSON.stringify(value), errs.join('; ')) : undefined;
}

/**
 * labels.NewRequirement: validates key, operator arity and values. Throws SelectorParseError with the
 * aggregated field errors. `nilValues` renders an empty value list as Go's nil slice.
 */
export function newRequirement(key: string, operator: string, values: string[], nilValues = false): Requirement {
  const errs: string[] = [];
  const keyErr = labelKeyError(key, 'key');
  if (keyErr) errs.push(keyErr);
  const shown = goStringSlice(nilValues && values.length === 0 ? null : values);
  switch (operator) {
    case SelectorOperator.In:
    case SelectorOperator.NotIn:
      if (values.length === 0) errs.push(fieldErrorText('values', shown, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case SelectorOperator.Equals:
    case SelectorOperator.DoubleEquals:
    case SelectorOperator.NotEquals:
      if (values.length !== 1) errs.push(fieldErrorText('values', shown, 'exact-match compatibility requires one single value'));
      break;
    case SelectorOperator.Exists:
    case SelectorOperator.DoesNotExist:
      if (values.length !== 0) errs.push(fieldErrorText('values', shown, 'values set must be empty for exists and does not exist'));
      break;
    case SelectorOperator.GreaterThan:
    case SelectorOperator.LessThan:
      if (values.length !== 1) errs.push(fieldErrorText('values', shown, "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (!/^[+-]?[0-9]+$/.test(v)) {
          errs.push(fieldErrorText(`values[${i}]`, JSON.stringify(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(
        `operator: Unsupported value: ${JSON.stringify(operator)}: supported values: ${validRequirementOperators.map((o) => JSON.stringify(o)).join(', ')}`,
      );
  }
  values.forEach((v, i) => {
    const e = labelValueError(key, v, `values[${i}]`);
    if (e) errs.push(e);
  });
  if (errs.length) throw new SelectorParseError(aggregate(errs));
  return { key, operator: operator as SelectorOperator, values: [...values] };
}

function requirementMatches(r: Requirement, labels: Labels): boolean {
  switch (r.operator) {
    case SelectorOperator.In:
    case SelectorOperator.Equals:
    case SelectorOperator.DoubleEquals:
      return has(labels, r.key) && r.values.includes(get(labels, r.key));
    case SelectorOperator.NotIn:
    case SelectorOperator.NotEquals:
      return !has(labels, r.key) || !r.values.includes(get(labels, r.key));
    case SelectorOperator.Exists:
      return has(labels, r.key);
    case SelectorOperator.DoesNotExist:
      return !has(labels, r.key);
    case SelectorOperator.GreaterThan:
    case SelectorOperator.LessThan: {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const lv = get(labels, r.key);
      if (!/^[+-]?[0-9]+$/.test(lv) || !/^[+-]?[0-9]+$/.test(r.values[0])) return false;
      const a = BigInt(lv);
      const b = BigInt(r.values[0]);
      return r.operator === SelectorOperator.GreaterThan ? a > b : a < b;
    }
    default:
      return false;
  }
}

export function requirementToString(r: Requirement): string {
  let s = r.operator === SelectorOperator.DoesNotExist ? `!${r.key}` : r.key;
  switch (r.operator) {
    case SelectorOperator.Exists:
    case SelectorOperator.DoesNotExist:
      return s;
    case SelectorOperator.Equals:
      s += '=';
      break;
    case SelectorOperator.DoubleEquals:
      s += '==';
      break;
    case SelectorOperator.NotEquals:
      s += '!=';
      break;
    case SelectorOperator.In:
      s += ' in ';
      break;
    case SelectorOperator.NotIn:
      s += ' notin ';
      break;
    case SelectorOperator.GreaterThan:
      s += '>';
      break;
    case SelectorOperator.LessThan:
      s += '<';
      break;
  }
  const paren = r.operator === SelectorOperator.In || r.operator === SelectorOperator.NotIn;
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort(compareStrings).join(',');
  return paren ? `${s}(${vals})` : s + vals;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortByKey(reqs: Requirement[]): Requirement[] {
  return reqs.sort((a, b) => compareStrings(a.key, b.key));
}

// ---------------------------------------------------------------- selectors

export function everything(): Selector {
  return { requirements: [] };
}

export function nothing(): Selector {
  return { requirements: [], nothing: true };
}

export function isEverything(sel: Selector): boolean {
  return !sel.nothing && sel.requirements.length === 0;
}

/** Whether the labels satisfy every requirement (labels.Selector.Matches). */
export function selectorMatches(selector: Selector, labels: Labels): boolean {
  if (selector.nothing) return false;
  return selector.requirements.every((r) => requirementMatches(r, labels));
}

/** The canonical string form: requirements sorted by key, "," joined ("app=web,tier in (a,b)"). */
export function selectorToString(selector: Selector): string {
  if (selector.nothing) return '';
  return selector.requirements.map(requirementToString).join(',');
}

/** The value a selector requires for a label, if it pins exactly one (for index lookups). */
export function requiresExactMatch(selector: Selector, key: string): string | undefined {
  for (const r of selector.requirements) {
    if (r.key !== key) continue;
    const exact = r.operator === SelectorOperator.Equals || r.operator === SelectorOperator.DoubleEquals || r.operator === SelectorOperator.In;
    return exact && r.values.length === 1 ? r.values[0] : undefined;
  }
  return undefined;
}

/** labels.SelectorFromSet: key=value for each entry (values are not validated, as SelectorFromValidatedSet). */
export function selectorFromSet(set: Labels): Selector {
  if (!set) return everything();
  const reqs = Object.keys(set).map((k) => ({ key: k, operator: SelectorOperator.Equals, values: [set[k]] }) as Requirement);
  return { requirements: sortByKey(reqs) };
}

/** Whether every key=value of `selector` is in `labels` (labels.SelectorFromSet(s).Matches(l)). */
export function matchesSet(selector: Labels, labels: Labels): boolean {
  if (!selector) return true;
  return Object.keys(selector).every((k) => has(labels, k) && get(labels, k) === selector[k]);
}

/**
 * metav1.LabelSelectorAsSelector: undefined/null → Nothing (matches nothing), {} → Everything.
 * Throws SelectorParseError with Kubernetes' texts on invalid keys, values and operators.
 */
export function labelSelectorAsSelector(ls: LabelSelector | undefined | null): Selector {
  if (ls === undefined || ls === null) return nothing();
  const matchLabels = ls.matchLabels ?? {};
  const exprs = ls.matchExpressions ?? [];
  if (Object.keys(matchLabels).length + exprs.length === 0) return everything();
  const reqs: Requirement[] = [];
  for (const k of Object.keys(matchLabels)) reqs.push(newRequirement(k, SelectorOperator.Equals, [matchLabels[k]]));
  for (const expr of exprs) {
    let op: SelectorOperator;
    switch (expr.operator) {
      case 'In':
        op = SelectorOperator.In;
        break;
      case 'NotIn':
        op = SelectorOperator.NotIn;
        break;
      case 'Exists':
        op = SelectorOperator.Exists;
        break;
      case 'DoesNotExist':
        op = SelectorOperator.DoesNotExist;
        break;
      default:
        throw new SelectorParseError(`${JSON.stringify(expr.operator ?? '')} is not a valid label selector operator`);
    }
    reqs.push(newRequirement(expr.key, op, [...(expr.values ?? [])], true));
  }
  return { requirements: sortByKey(reqs) };
}

/** metav1.FormatLabelSelector, what kubectl prints in SELECTOR columns: "<none>" when empty, "<error>" when invalid. */
export function formatLabelSelector(ls: LabelSelector | undefined | null): string {
  try {
    const s = selectorToString(labelSelectorAsSelector(ls));
    return s.length ? s : '<none>';
  } catch {
    return '<error>';
  }
}

/** Whether a metav1.LabelSelector selects the labels; an invalid selector selects nothing. */
export function labelSelectorMatches(ls: LabelSelector | undefined | null, labels: Labels): boolean {
  try {
    return selectorMatches(labelSelectorAsSelector(ls), labels);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- selector strings (labels.Parse)

const Token = {
  Error: 0,
  EndOfString: 1,
  ClosedPar: 2,
  Comma: 3,
  DoesNotExist: 4,
  DoubleEquals: 5,
  Equals: 6,
  GreaterThan: 7,
  Identifier: 8,
  In: 9,
  LessThan: 10,
  NotEquals: 11,
  NotIn: 12,
  OpenPar: 13,
} as const;
type Token = (typeof Token)[keyof typeof Token];

const string2token: Record<string, Token> = {
  ')': Token.ClosedPar,
  ',': Token.Comma,
  '!': Token.DoesNotExist,
  '==': Token.DoubleEquals,
  '=': Token.Equals,
  '>': Token.GreaterThan,
  in: Token.In,
  '<': Token.LessThan,
  '!=': Token.NotEquals,
  notin: Token.NotIn,
  '(': Token.OpenPar,
};

function tokenFor(s: string): Token | undefined {
  return Object.prototype.hasOwnProperty.call(string2token, s) ? string2token[s] : undefined;
}

interface ScannedItem {
  tok: Token;
  literal: string;
}

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => '=!(),><'.includes(ch) && ch.length === 1;

/** The lexer of selector.go, byte for byte (the input is treated as a sequence of UTF-16 units). */
function lex(s: string): ScannedItem[] {
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++] : '');
  const unread = () => {
    pos--;
  };
  const items: ScannedItem[] = [];
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    let item: ScannedItem;
    if (ch === '') {
      item = { tok: Token.EndOfString, literal: '' };
    } else if (isSpecialSymbol(ch)) {
      unread();
      let buffer = '';
      let last: ScannedItem | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c)) {
          buffer += c;
          const t = tokenFor(buffer);
          if (t !== undefined) last = { tok: t, literal: buffer };
          else if (last) {
            unread();
            break;
          }
        } else {
          unread();
          break;
        }
      }
      item = last ?? { tok: Token.Error, literal: `error expected: keyword found '${buffer}'` };
    } else {
      unread();
      let buffer = '';
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c) || isWhitespace(c)) {
          unread();
          break;
        }
        buffer += c;
      }
      item = { tok: tokenFor(buffer) ?? Token.Identifier, literal: buffer };
    }
    items.push(item);
    if (item.tok === Token.EndOfString) return items;
  }
}

const Context = { KeyAndOperator: 0, Values: 1 } as const;
type Context = (typeof Context)[keyof typeof Context];

class Parser {
  private position = 0;
  constructor(private readonly items: ScannedItem[]) {}

  private view(item: ScannedItem, context: Context): [Token, string] {
    // In the values context "in" and "notin" are ordinary identifiers (a label may be called "in").
    if (context === Context.Values && (item.tok === Token.In || item.tok === Token.NotIn)) return [Token.Identifier, item.literal];
    return [item.tok, item.literal];
  }

  lookahead(context: Context): [Token, string] {
    return this.view(this.items[this.position], context);
  }

  consume(context: Context): [Token, string] {
    this.position++;
    return this.view(this.items[this.position - 1], context);
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const [tok, lit] = this.lookahead(Context.Values);
      if (tok === Token.Identifier || tok === Token.DoesNotExist) {
        let r: Requirement;
        try {
          r = this.parseRequirement();
        } catch (e) {
          throw new SelectorParseError(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const [t, l] = this.consume(Context.Values);
        if (t === Token.EndOfString) return reqs;
        if (t === Token.Comma) {
          const [t2, l2] = this.lookahead(Context.Values);
          if (t2 !== Token.Identifier && t2 !== Token.DoesNotExist) {
            throw new SelectorParseError(`found '${l2}', expected: identifier after ','`);
          }
        } else {
          throw new SelectorParseError(`found '${l}', expected: ',' or 'end of string'`);
        }
      } else if (tok === Token.EndOfString) {
        return reqs;
      } else {
        throw new SelectorParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === SelectorOperator.Exists || operator === SelectorOperator.DoesNotExist) {
      return newRequirement(key, operator, []);
    }
    const op = this.parseOperator();
    let values: string[];
    if (op === SelectorOperator.In || op === SelectorOperator.NotIn) values = this.parseValues();
    else values = this.parseExactValue();
    // sets.String.List(): de-duplicated and sorted.
    return newRequirement(key, op, [...new Set(values)].sort(compareStrings));
  }

  private parseKeyAndInferOperator(): { key: string; operator?: SelectorOperator } {
    let operator: SelectorOperator | undefined;
    let [tok, literal] = this.consume(Context.Values);
    if (tok === Token.DoesNotExist) {
      operator = SelectorOperator.DoesNotExist;
      [tok, literal] = this.consume(Context.Values);
    }
    if (tok !== Token.Identifier) throw new Error(`found '${literal}', expected: identifier`);
    const keyErr = labelKeyError(literal, '<nil>');
    if (keyErr) throw new Error(keyErr);
    const [t] = this.lookahead(Context.Values);
    if ((t === Token.EndOfString || t === Token.Comma) && operator !== SelectorOperator.DoesNotExist) {
      operator = SelectorOperator.Exists;
    }
    return { key: literal, operator };
  }

  private parseOperator(): SelectorOperator {
    const [tok, lit] = this.consume(Context.KeyAndOperator);
    switch (tok) {
      case Token.In:
        return SelectorOperator.In;
      case Token.Equals:
        return SelectorOperator.Equals;
      case Token.DoubleEquals:
        return SelectorOperator.DoubleEquals;
      case Token.GreaterThan:
        return SelectorOperator.GreaterThan;
      case Token.LessThan:
        return SelectorOperator.LessThan;
      case Token.NotIn:
        return SelectorOperator.NotIn;
      case Token.NotEquals:
        return SelectorOperator.NotEquals;
      default:
        throw new Error(`found '${lit}', expected: in, notin, =, ==, !=, gt, lt`);
    }
  }

  private parseValues(): string[] {
    let [tok, lit] = this.consume(Context.Values);
    if (tok !== Token.OpenPar) throw new Error(`found '${lit}' expected: '('`);
    [tok, lit] = this.lookahead(Context.Values);
    if (tok === Token.Identifier || tok === Token.Comma) {
      const s = this.parseIdentifiersList();
      const [closing] = this.consume(Context.Values);
      if (closing !== Token.ClosedPar) throw new Error(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === Token.ClosedPar) {
      this.consume(Context.Values);
      return [''];
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): string[] {
    const s = new Set<string>();
    for (;;) {
      const [tok, lit] = this.consume(Context.Values);
      if (tok === Token.Identifier) {
        s.add(lit);
        const [tok2, lit2] = this.lookahead(Context.Values);
        if (tok2 === Token.Comma) continue;
        if (tok2 === Token.ClosedPar) return [...s];
        throw new Error(`found '${lit2}', expected: ',' or ')'`);
      } else if (tok === Token.Comma) {
        // "(,", ",)" and ",," each stand for an empty value.
        if (s.size === 0) s.add('');
        const [tok2] = this.lookahead(Context.Values);
        if (tok2 === Token.ClosedPar) {
          s.add('');
          return [...s];
        }
        if (tok2 === Token.Comma) {
          this.consume(Context.Values);
          s.add('');
        }
      } else {
        throw new Error(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const [tok] = this.lookahead(Context.Values);
    if (tok === Token.EndOfString || tok === Token.Comma) return [''];
    const [t, lit] = this.consume(Context.Values);
    if (t === Token.Identifier) return [lit];
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/** labels.Parse: "app=web,tier!=db", "env in (a,b)", "!canary", "release". Throws SelectorParseError. */
export function parseSelector(selector: string): Selector {
  const reqs = new Parser(lex(selector)).parse();
  return { requirements: sortByKey(reqs) };
}

// ---------------------------------------------------------------- field selectors (fields.ParseSelector)

export interface FieldRequirement {
  field: string;
  /** "=" (also written "==") or "!=". */
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  requirements: FieldRequirement[];
}

/** A field selector string that fields.ParseSelector rejects, or a field the resource does not support. */
export class FieldSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorError';
  }
}

function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

function splitTerm(term: string): [string, string, string] | undefined {
  for (let i = 0; i < term.length; i++) {
    const rest = term.slice(i);
    for (const op of ['!=', '==', '=']) {
      if (rest.startsWith(op)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.ParseSelector: ","-joined terms of field=value, field==value or field!=value (values escaped with \). */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort(compareStrings);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new FieldSelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    requirements.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeValue(rhs) });
  }
  return { requirements };
}

/** Missing fields read as "", as fields.Set.Get does: `spec.nodeName=` selects unscheduled pods. */
export function fieldSelectorMatches(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
  return fieldSelectorMatchesBy(selector, (field) => (Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : ''));
}

/** fieldSelectorMatches over fields read one by one ('' for a field the object lacks), for a caller that reads them alone. */
export function fieldSelectorMatchesBy(selector: FieldSelector, valueOf: (field: string) => string): boolean {
  for (const r of selector.requirements) {
    const v = valueOf(r.field);
    if (r.operator === '=' ? v !== r.value : v === r.value) return false;
  }
  return true;
}

export function fieldSelectorToString(selector: FieldSelector): string {
  return selector.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/**
 * The field-label check the conversion functions do: every field must be one the resource supports.
 * Throws `field label not supported: <field>` for the first one that is not.
 */
export function checkFieldSelectorFields(selector: FieldSelector, supported: Iterable<string>): void {
  const ok = new Set(supported);
  for (const r of selector.requirements) {
    if (!ok.has(r.field)) throw new FieldSelectorError(`field label not supported: ${r.field}`);
  }
}
