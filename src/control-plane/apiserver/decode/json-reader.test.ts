import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, readJson } from './json-reader';

describe('readJson', () => {
  it('agrees with JSON.parse on valid JSON (property)', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        fc.pre(!/[0-9]{16,}/.test(text)); // 16+ digit integers come back as BigInt, by design
        expect(readJson(text).value).toEqual(JSON.parse(text));
      }),
    );
  });

  it('records the key order of objects with repeated keys, by path; the last value wins', () => {
    const { value, keyOrder } = readJson('{"a":{"x":1,"y":2,"x":3},"b":[{"k":1,"k":2}],"c":{"q":1}}');
    expect(value).toEqual({ a: { x: 3, y: 2 }, b: [{ k: 2 }], c: { q: 1 } });
    expect([...keyOrder]).toEqual([
      ['a', ['x', 'y', 'x']],
      ['b[0]', ['k', 'k']],
    ]);
  });

  it('keeps integers beyond 2^53 as BigInt', () => {
    expect(readJson('[9007199254740991, 9007199254740993, -9007199254740993, 1e300, 12345678901234567.5]').value).toEqual([
      9007199254740991,
      9007199254740993n,
      -9007199254740993n,
      1e300,
      12345678901234567.5,
    ]);
  });

  it('makes __proto__ an own data property', () => {
    const { value } = readJson('{"__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('fails with encoding/json texts', () => {
    const cases: [string, string][] = [
      ['', 'unexpected end of JSON input'],
      ['x', "invalid character 'x' looking for beginning of value"],
      ['{1:2}', "invalid character '1' looking for beginning of object key string"],
      ['{"a":1}}', "invalid character '}' after top-level value"],
      ['[01]', "invalid character '1' after array element"],
      ['[-]', "invalid character ']' in numeric literal"],
      ['[1.]', "invalid character ']' after decimal point in numeric literal"],
      ['[1e]', "invalid character ']' in exponent of numeric literal"],
      ['["\\q"]', "invalid character 'q' in string escape code"],
      ['["\\u12x4"]', "invalid character 'x' in \\u hexadecimal character escape"],
      ['[nul]', "invalid character ']' in literal null (expecting 'l')"],
      ["['a']", "invalid character '\\'' looking for beginning of value"],
      ['["a\tb"]', "invalid character '\\t' in string literal"],
    ];
    for (const [text, message] of cases) {
      let thrown: unknown;
      try {
        readJson(text);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, text).toBeInstanceOf(JsonSyntaxError);
      expect((thrown as Error).message, text).toBe(message);
    }
    expect(() => readJson('['.repeat(20) + ']'.repeat(20), 10)).toThrow('exceeded max depth of 10');
  });
});
