import { describe, expect, it } from 'vitest';
import { newInvalid } from '../../shared/api/status';
import { fieldErr } from '../../shared/api/field-errors';
import { AggregateError, errorLines } from './check-err';
import { createMergePatch, editHeader, hasLines, manualStrip, stripComments } from './edit-file';
import { parseGoDuration } from './flags';
import { selectString, updateEnv, parseEnv, splitEnvironmentFromResources } from '../cmd/set-env';

describe('checkErr texts', () => {
  it('prints Invalid errors by kind and name, one or several causes', () => {
    const one = newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', [fieldErr.required('spec.selector')]);
    expect(errorLines(one)).toEqual(['The Deployment "web" is invalid: spec.selector: Required value']);
    const two = newInvalid({ group: 'apps', kind: 'Deployment' }, 'web', [fieldErr.required('spec.selector'), fieldErr.required('spec.template')]);
    expect(errorLines(two)).toEqual(['The Deployment "web" is invalid: ', '* spec.selector: Required value', '* spec.template: Required value']);
  });

  it('prefixes plain errors once, and prints an aggregate one per line without the prefix', () => {
    expect(errorLines(new Error('boom'))).toEqual(['error: boom']);
    expect(errorLines(new Error('error: boom\n'))).toEqual(['error: boom']);
    expect(errorLines(new AggregateError([new Error('a')]))).toEqual(['error: a']);
    expect(errorLines(new AggregateError([new Error('a'), new Error('error: b')]))).toEqual(['a', 'error: b']);
  });
});

describe('edit file helpers', () => {
  it('writes the reasons under the header as comments', () => {
    expect(editHeader([{ head: 'pods "a" was not valid', other: ['spec: bad\nreally'] }]).split('\n').slice(4)).toEqual(['# pods "a" was not valid:', '# * spec: bad', '# really', '#', '']);
  });

  it('compares content, not comments or layout; an all-comment file is empty', () => {
    expect(stripComments('# x\na: 1\nb: [1, 2]\n')).toBe(stripComments('b:\n- 1\n- 2\na: 1'));
    expect(stripComments('a: 1')).not.toBe(stripComments('a: 2'));
    expect(manualStrip('#x\n  # y\n#!z\nq\n')).toBe('#!z\nq\n');
    expect(hasLines('# a\n\n   \n')).toBe(false);
    expect(hasLines('# a\nb: 1')).toBe(true);
  });

  it('computes RFC 7386 merge patches', () => {
    expect(createMergePatch({ a: 1, b: { c: 1, d: 2 }, e: [1] }, { a: 1, b: { c: 2 }, e: [1, 2], f: 'x' })).toEqual({ b: { c: 2, d: null }, e: [1, 2], f: 'x' });
  });
});

describe('set env helpers', () => {
  it("matches container names with kubectl's wildcard rules", () => {
    expect(selectString('nginx', '*')).toBe(true);
    expect(selectString('nginx', 'ngi*')).toBe(true);
    expect(selectString('nginx', '*inx')).toBe(true);
    expect(selectString('nginx', 'web*x')).toBe(false);
    // kubectl checks the first part's position with the running offset (0), so a prefix is found anywhere.
    expect(selectString('nginx', 'x*')).toBe(true);
    expect(selectString('sidecar', 'side')).toBe(false);
  });

  it('replaces variables in place, appends new ones, and lets removals win', () => {
    const existing = [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ];
    expect(updateEnv(existing, [{ name: 'B', value: '3' }, { name: 'C', value: '4' }], ['A'])).toEqual([
      { name: 'B', value: '3' },
      { name: 'C', value: '4' },
    ]);
    expect(parseEnv(['X=1', '-'], 'Y=2 # comment\nnot a var\nZ=3')).toEqual({ env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2 ' }, { name: 'Z', value: '3' }], remove: [] });
    expect(() => parseEnv(['-'], undefined)).toThrow("when '-' is used, STDIN must be open");
    expect(splitEnvironmentFromResources(['deploy/a', 'rc/b', 'A=1', 'B-'])).toEqual({ resources: ['deploy/a', 'rc/b'], envArgs: ['A=1', 'B-'] });
  });
});

describe('durations', () => {
  it('parses Go durations to milliseconds', () => {
    expect(parseGoDuration('1m30s')).toBe(90_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('250ms')).toBe(250);
    expect(parseGoDuration('5')).toBeUndefined();
  });
});
