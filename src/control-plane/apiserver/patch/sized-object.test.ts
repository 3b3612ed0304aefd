import { describe, expect, it } from 'vitest';
import { frozenCopy, setOwn } from './json-value';
import { objectFor } from './sized-object';

describe('objectFor', () => {
  it('gives a new, empty plain object for any number of keys, whose members keep the order they are set in', () => {
    for (const n of [1, 4, 5, 12, 64, 65]) {
      const keys = Array.from({ length: n }, (_, i) => `k${n - i}`);
      const made = [objectFor(keys), objectFor(keys)];
      expect(made[0]).not.toBe(made[1]);
      for (const o of made) {
        expect(Object.keys(o)).toEqual([]);
        expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
        expect(o.constructor).toBe(Object);
        keys.forEach((k, i) => (o[k] = i));
        expect(Object.keys(o)).toEqual(keys);
        expect(JSON.stringify(o)).toBe(JSON.stringify(Object.fromEntries(keys.map((k, i) => [k, i]))));
      }
    }
  });

  it('keeps "__proto__" and other odd keys as own data members', () => {
    const keys = ['__proto__', 'constructor', '1', 'a"b', 'x\\y'];
    const o = objectFor(keys);
    for (const k of keys) setOwn(o, k, `v${k}`);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(o))).toEqual(JSON.parse('{"1":"v1","__proto__":"v__proto__","constructor":"vconstructor","a\\"b":"va\\"b","x\\\\y":"vx\\\\y"}'));
  });
});

describe('frozen copies made at their size', () => {
  it('have the same JSON text as the value, undefined members dropped', () => {
    const value = {
      apiVersion: 'v1',
      kind: 'Pod',
      gone: undefined,
      metadata: { name: 'web', namespace: 'default', uid: 'u', labels: { app: 'web' }, creationTimestamp: 't', extra: undefined },
      spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], env: [], args: ['a'], command: ['b'] }] },
      status: {},
    };
    const copy = frozenCopy(value);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    expect(Object.keys(copy)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(Object.isFrozen(copy.metadata)).toBe(true);
    // A new version shares what did not change, and its changed objects are laid out the same way.
    const next = frozenCopy({ ...value, metadata: { ...value.metadata, labels: { app: 'api' } } }, copy);
    expect(next.spec).toBe(copy.spec);
    expect(JSON.stringify(next.metadata)).toBe('{"name":"web","namespace":"default","uid":"u","labels":{"app":"api"},"creationTimestamp":"t"}');
  });
});
