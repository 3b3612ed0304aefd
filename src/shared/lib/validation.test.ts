import { describe, expect, it } from 'vitest';
import {
  isConfigMapKey,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isIP,
  isCIDR,
  isQualifiedName,
  isValidLabelValue,
  isValidPortName,
  nameIsDNSSubdomain,
  regexError,
  validatePathSegmentName,
} from './validation';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('regexError', () => {
  it('joins examples with the double space Kubernetes prints', () => {
    expect(regexError('msg', 'fmt', 'a', 'b')).toBe("msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')");
    expect(regexError('msg', 'fmt')).toBe("msg (regex used for validation is 'fmt')");
  });
});

describe('DNS names (B8, B9)', () => {
  it('rejects My_Pod as a subdomain with the exact text', () => {
    expect(isDNS1123Subdomain('My_Pod')).toEqual([subdomainMsg]);
    expect(isDNS1123Subdomain('web-1.example')).toEqual([]);
  });

  it('reports length before the pattern', () => {
    const long = 'a'.repeat(254);
    expect(isDNS1123Subdomain(long)).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it('says "must not contain dots" for a valid subdomain used as a label', () => {
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('A')).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });

  it('requires a leading letter for DNS-1035 (Service names like 1web)', () => {
    expect(isDNS1035Label('1web')).toEqual([
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1035Label('web1')).toEqual([]);
  });

  it('accepts a trailing dash in generateName prefixes', () => {
    expect(nameIsDNSSubdomain('web-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('web-', false)).toEqual([subdomainMsg]);
  });

  it('checks path-segment names (RBAC)', () => {
    expect(validatePathSegmentName('system:admin', false)).toEqual([]);
    expect(validatePathSegmentName('..', false)).toEqual(["may not be '..'"]);
    expect(validatePathSegmentName('a/b%c', false)).toEqual(["may not contain '/'", "may not contain '%'"]);
    expect(validatePathSegmentName('.', true)).toEqual([]);
  });
});

describe('label keys and values (B10)', () => {
  it('rejects __proto__ as a key (it starts with an underscore)', () => {
    expect(isQualifiedName('__proto__')).toEqual([
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  it('validates prefixes and empty parts', () => {
    expect(isQualifiedName('example.com/app')).toEqual([]);
    expect(isQualifiedName('/app')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('example.com/')[0]).toBe('name part must be non-empty');
    expect(isQualifiedName('Example.com/app')[0]).toMatch(/^prefix part a lowercase RFC 1123 subdomain/);
    expect(isQualifiedName('a/b/c')).toEqual([
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]);
  });

  it('rejects "bad value!" with the label-value text', () => {
    expect(isValidLabelValue('bad value!')).toEqual([
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('x'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('config keys (B22)', () => {
  it('accepts __proto__ and constructor as ConfigMap keys', () => {
    expect(isConfigMapKey('__proto__')).toEqual([]);
    expect(isConfigMapKey('constructor')).toEqual([]);
  });
  it('rejects bad keys and dot prefixes', () => {
    expect(isConfigMapKey('a b')).toEqual([
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    expect(isConfigMapKey('..data')).toEqual(["must not start with '..'"]);
    expect(isConfigMapKey('.')).toEqual(["must not be '.'"]);
  });
});

describe('misc validators', () => {
  it('port names', () => {
    expect(isValidPortName('http')).toEqual([]);
    expect(isValidPortName('1234')).toEqual(['must contain at least one letter (a-z)']);
    expect(isValidPortName('a--b')).toEqual(['must not contain consecutive hyphens']);
    expect(isValidPortName('toolongportname1')).toContain('must be no more than 15 characters');
  });
  it('env var names', () => {
    expect(isEnvVarName('MY_VAR')).toEqual([]);
    expect(isEnvVarName('1VAR')[0]).toMatch(/^a valid environment variable name must consist of alphabetic characters/);
  });
  it('IPs and CIDRs', () => {
    expect(isIP('10.0.0.1')).toBe(true);
    expect(isIP('2001:db8::1')).toBe(true);
    expect(isIP('::ffff:10.0.0.1')).toBe(true);
    expect(isIP('10.0.0.256')).toBe(false);
    expect(isIP('host')).toBe(false);
    expect(isCIDR('10.0.0.0/8')).toBe(true);
    expect(isCIDR('10.0.0.0/33')).toBe(false);
  });
});
