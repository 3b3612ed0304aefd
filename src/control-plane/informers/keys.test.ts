import { describe, expect, it } from 'vitest';
import { metaNamespaceKeyFunc, sharedKey, splitMetaNamespaceKey } from './keys';

describe('keys', () => {
  it('builds and splits namespace/name keys', () => {
    expect(metaNamespaceKeyFunc({ metadata: { namespace: 'default', name: 'web' } })).toBe('default/web');
    expect(metaNamespaceKeyFunc({ metadata: { name: 'node-1' } })).toBe('node-1');
    expect(splitMetaNamespaceKey('default/web')).toEqual({ namespace: 'default', name: 'web' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow('unexpected key format');
  });

  it('shares a key by its text, across more new keys than one generation holds', () => {
    const ns = 'default';
    for (let i = 0; i < 20_000; i++) {
      const key = `${ns}/pod-${i}`;
      expect(sharedKey(key)).toBe(key);
      expect(sharedKey(`${ns}/pod-${i}`)).toBe(key);
    }
  });
});
