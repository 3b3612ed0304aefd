import { describe, expect, it } from 'vitest';
import { isStatusError } from '../../shared/api/status';
import { objectKey, parseObjectKey, resourcePrefix } from './keys';

const pods = { group: '', resource: 'pods' };
const deployments = { group: 'apps', resource: 'deployments' };
const nodes = { group: '', resource: 'nodes' };
const crbs = { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' };

describe('storage keys', () => {
  it('lays out namespaced and cluster-scoped keys', () => {
    expect(objectKey(pods, 'default', 'web-1')).toBe('/registry/core/pods/default/web-1');
    expect(objectKey(deployments, 'kube-system', 'coredns')).toBe('/registry/apps/deployments/kube-system/coredns');
    expect(objectKey(nodes, undefined, 'node-1')).toBe('/registry/core/nodes/node-1');
    expect(objectKey(crbs, '', 'admin')).toBe('/registry/rbac.authorization.k8s.io/clusterrolebindings/admin');
  });

  it('gives prefixes that end in a slash and contain their objects', () => {
    expect(resourcePrefix(pods)).toBe('/registry/core/pods/');
    expect(resourcePrefix(pods, 'default')).toBe('/registry/core/pods/default/');
    expect(objectKey(pods, 'default', 'a').startsWith(resourcePrefix(pods, 'default'))).toBe(true);
    expect(objectKey(pods, 'default', 'a').startsWith(resourcePrefix(pods))).toBe(true);
    // A resource whose name extends another's is not inside its prefix.
    expect(objectKey({ group: '', resource: 'podtemplates' }, 'default', 'a').startsWith(resourcePrefix(pods))).toBe(false);
  });

  it('rejects invalid names with the registry texts', () => {
    const err = (fn: () => unknown): string => {
      try {
        fn();
      } catch (e) {
        if (isStatusError(e)) return `${e.code} ${e.message}`;
        throw e;
      }
      throw new Error('expected an error');
    };
    expect(err(() => objectKey(pods, 'default', ''))).toBe('400 Name parameter required.');
    expect(err(() => objectKey(pods, 'default', 'a/b'))).toBe(`400 Name parameter invalid: "a/b": may not contain '/'`);
    expect(err(() => objectKey(pods, 'default', 'a/%'))).toBe(`400 Name parameter invalid: "a/%": may not contain '/';may not contain '%'`);
    expect(err(() => objectKey(pods, 'default', '..'))).toBe(`400 Name parameter invalid: "..": may not be '..'`);
  });

  it('parses keys back', () => {
    expect(parseObjectKey('/registry/core/pods/default/web-1')).toEqual({ group: '', resource: 'pods', namespace: 'default', name: 'web-1' });
    expect(parseObjectKey('/registry/apps/deployments/ns/d')).toEqual({ group: 'apps', resource: 'deployments', namespace: 'ns', name: 'd' });
    expect(parseObjectKey('/registry/core/nodes/n1')).toEqual({ group: '', resource: 'nodes', name: 'n1' });
    expect(parseObjectKey('/registry/core/pods/')).toBeUndefined();
    expect(parseObjectKey('/other/core/pods/a')).toBeUndefined();
  });
});
