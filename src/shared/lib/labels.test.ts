import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FieldSelectorError,
  SelectorParseError,
  checkFieldSelectorFields,
  fieldSelectorMatches,
  fieldSelectorToString,
  formatLabelSelector,
  labelSelectorAsSelector,
  labelSelectorMatches,
  parseFieldSelector,
  parseSelector,
  requiresExactMatch,
  selectorFromSet,
  selectorMatches,
  selectorToString,
} from './labels';

function parseError(s: string): string {
  try {
    parseSelector(s);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    return (e as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(s)} to fail`);
}

describe('parseSelector', () => {
  it('parses every operator and prints the canonical form (sorted by key, values sorted)', () => {
    const sel = parseSelector('tier notin (b,a), app=web,env==prod, track!=canary, !beta, release, x in (z,y)');
    expect(selectorToString(sel)).toBe('app=web,!beta,env==prod,release,tier notin (a,b),track!=canary,x in (y,z)');
  });

  it('matches labels like labels.Selector.Matches', () => {
    const sel = parseSelector('app=web,env in (prod,staging),!canary,tier');
    expect(selectorMatches(sel, { app: 'web', env: 'prod', tier: 'fe' })).toBe(true);
    expect(selectorMatches(sel, { app: 'web', env: 'dev', tier: 'fe' })).toBe(false);
    expect(selectorMatches(sel, { app: 'web', env: 'prod', tier: 'fe', canary: 'true' })).toBe(false);
    expect(selectorMatches(sel, { app: 'web', env: 'prod' })).toBe(false);
    // != and notin match when the label is absent.
    expect(selectorMatches(parseSelector('env!=prod'), {})).toBe(true);
    expect(selectorMatches(parseSelector('env notin (prod)'), { app: 'x' })).toBe(true);
  });

  it('treats "in" as an identifier in value position and supports gt/lt', () => {
    expect(selectorMatches(parseSelector('mode=in'), { mode: 'in' })).toBe(true);
    expect(selectorMatches(parseSelector('n>3'), { n: '10' })).toBe(true);
    expect(selectorMatches(parseSelector('n<3'), { n: '10' })).toBe(false);
    expect(selectorMatches(parseSelector('n>3'), { n: 'x' })).toBe(false);
  });

  it('allows empty values', () => {
    expect(selectorMatches(parseSelector('a='), { a: '' })).toBe(true);
    expect(selectorMatches(parseSelector('a in ()'), { a: '' })).toBe(true);
    expect(selectorMatches(parseSelector(''), { anything: 'x' })).toBe(true);
  });

  it('does not read inherited properties as labels', () => {
    expect(selectorMatches(parseSelector('constructor'), {})).toBe(false);
    expect(selectorMatches(parseSelector('!toString'), {})).toBe(true);
  });

  it('reports the selector.go error texts (B11)', () => {
    expect(parseError('app in (a,b')).toBe("unable to parse requirement: found '', expected: ',' or ')'");
    expect(parseError('app in a')).toBe("unable to parse requirement: found 'a' expected: '('");
    expect(parseError('app=web foo')).toBe("found 'foo', expected: ',' or 'end of string'");
    expect(parseError('=web')).toBe("found '=', expected: !, identifier, or 'end of string'");
    expect(parseError('app=web,')).toBe("found '', expected: identifier after ','");
    expect(parseError('app in (a b)')).toBe("unable to parse requirement: found 'b', expected: ',' or ')'");
    expect(parseError('app in (=)')).toBe("unable to parse requirement: found '=', expected: ',', ')' or identifier");
    expect(parseError('app )')).toBe("unable to parse requirement: found ')', expected: in, notin, =, ==, !=, gt, lt");
    expect(parseError('app=(')).toBe("unable to parse requirement: found '(', expected: identifier");
  });

  it('validates keys and values with the field error wording', () => {
    expect(parseError('_a=b')).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"_a\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    expect(parseError('app=a$b')).toBe(
      "unable to parse requirement: values[0][app]: Invalid value: \"a$b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
    expect(parseError('n>x')).toBe('unable to parse requirement: values[0]: Invalid value: "x": for \'Gt\', \'Lt\' operators, the value must be an integer');
  });

  it('round-trips: parse(print(sel)) prints the same', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);
    const value = fc.stringMatching(/^[a-z0-9]{1,5}$/);
    const req = fc.oneof(
      fc.tuple(key, value).map(([k, v]) => `${k}=${v}`),
      fc.tuple(key, value).map(([k, v]) => `${k}!=${v}`),
      fc.tuple(key, fc.array(value, { minLength: 1, maxLength: 3 })).map(([k, vs]) => `${k} in (${vs.join(',')})`),
      key.map((k) => `!${k}`),
      key,
    );
    fc.assert(
      fc.property(fc.array(req, { minLength: 1, maxLength: 5 }), (reqs) => {
        const printed = selectorToString(parseSelector(reqs.join(',')));
        expect(selectorToString(parseSelector(printed))).toBe(printed);
      }),
    );
  });
});

describe('metav1.LabelSelector', () => {
  it('nil selects nothing, empty selects everything', () => {
    expect(labelSelectorMatches(undefined, { a: 'b' })).toBe(false);
    expect(labelSelectorMatches({}, { a: 'b' })).toBe(true);
  });

  it('converts matchLabels and matchExpressions', () => {
    const ls = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }, { key: 'old', operator: 'DoesNotExist' }] };
    expect(selectorToString(labelSelectorAsSelector(ls))).toBe('app=web,!old,tier in (be,fe)');
    expect(labelSelectorMatches(ls, { app: 'web', tier: 'be' })).toBe(true);
    expect(labelSelectorMatches(ls, { app: 'web', tier: 'be', old: '1' })).toBe(false);
  });

  it('fails on bad operators and empty In values with Kubernetes texts', () => {
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toThrow('"Foo" is not a valid label selector operator');
    expect(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    );
  });

  it('formats for kubectl columns', () => {
    expect(formatLabelSelector({})).toBe('<none>');
    expect(formatLabelSelector({ matchLabels: { app: 'web' } })).toBe('app=web');
    expect(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Bad' }] })).toBe('<error>');
  });

  it('selectorFromSet and requiresExactMatch', () => {
    const sel = selectorFromSet({ b: '2', a: '1' });
    expect(selectorToString(sel)).toBe('a=1,b=2');
    expect(requiresExactMatch(sel, 'a')).toBe('1');
    expect(requiresExactMatch(parseSelector('a in (x,y)'), 'a')).toBeUndefined();
  });
});

describe('field selectors', () => {
  it('parses =, == and != terms, sorted', () => {
    const sel = parseFieldSelector('status.phase=Running,spec.nodeName!=,metadata.name==web');
    expect(fieldSelectorToString(sel)).toBe('metadata.name=web,spec.nodeName!=,status.phase=Running');
    expect(fieldSelectorMatches(sel, { 'metadata.name': 'web', 'spec.nodeName': 'n1', 'status.phase': 'Running' })).toBe(true);
    expect(fieldSelectorMatches(sel, { 'metadata.name': 'web', 'status.phase': 'Running' })).toBe(false);
  });

  it('unescapes values and reports bad terms', () => {
    expect(parseFieldSelector('a=x\\,y').requirements[0].value).toBe('x,y');
    expect(() => parseFieldSelector('abc')).toThrow("invalid selector: 'abc'; can't understand 'abc'");
    expect(() => parseFieldSelector('a=b\\q')).toThrow('invalid field selector: invalid escape sequence: \\q');
  });

  it('rejects unsupported fields', () => {
    const sel = parseFieldSelector('spec.foo=bar');
    expect(() => checkFieldSelectorFields(sel, ['metadata.name'])).toThrow(FieldSelectorError);
    expect(() => checkFieldSelectorFields(sel, ['metadata.name'])).toThrow('field label not supported: spec.foo');
  });
});
