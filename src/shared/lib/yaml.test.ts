import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkYamlLimits, locateFieldPath, parseFieldPath, parseManifests, parseYamlDocument, toYaml, yamlLimits } from './yaml';

const objects = (text: string) => parseManifests(text).map((d) => d.object);

describe('parseManifests: kubectl YAML semantics', () => {
  it('reads YAML 1.1 scalars as go-yaml v2 does', () => {
    const [doc] = parseManifests(`mode: 0644
a: yes
b: on
c: NO
d: y
e: "yes"
f: 2001-12-14
g: 1:20
h: 1_000
i: 0x1F
j: ~
k: 1.5
l: 012345678
`);
    expect(doc.error).toBeUndefined();
    expect(doc.object).toEqual({
      mode: 420,
      a: true,
      b: true,
      c: false,
      d: true,
      e: 'yes',
      f: '2001-12-14',
      g: '1:20',
      h: 1000,
      i: 31,
      j: null,
      k: 1.5,
      l: 12345678,
    });
  });

  it('keeps integers beyond 2^53 exact, as BigInt', () => {
    const [doc] = parseManifests('a: 9007199254740993\nb: 9007199254740991\nc: -9007199254740993\n');
    expect(doc.object).toEqual({ a: 9007199254740993n, b: 9007199254740991, c: -9007199254740993n });
  });

  it('splits a stream, skipping empty documents and comment-only ones', () => {
    const docs = parseManifests(`# leading comment
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
---
# nothing here
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b}
...
`);
    expect(docs.map((d) => (d.object as { metadata: { name: string } }).metadata.name)).toEqual(['a', 'b']);
    expect(docs[0].range).toEqual({ startLine: 3, endLine: 5 });
    expect(docs[1].range.startLine).toBe(10);
    expect(docs[1].source.startsWith('apiVersion: v1')).toBe(true);
    expect(parseManifests('')).toEqual([]);
    expect(parseManifests('---\n---\n# only comments\n')).toEqual([]);
  });

  it('accepts the flow style the Kubernetes docs use (unquoted keys, trailing commas)', () => {
    const [doc] = parseManifests(`---
{
  apiVersion: "v1",
  kind: "Secret",
  metadata: {
    name: "test-secret",
  },
  data: {
    username: "bXktYXBw",
  },
}
`);
    expect(doc.object).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'test-secret' }, data: { username: 'bXktYXBw' } });
  });

  it('reports syntax errors with line and column, per document, and keeps the other documents', () => {
    const docs = parseManifests('a: 1\n---\nkind: Pod\nmetadata:\n  name: x\n    bad: 1\n---\nb: 2\n');
    expect(docs).toHaveLength(3);
    expect(docs[0].object).toEqual({ a: 1 });
    expect(docs[1].error).toMatchObject({ line: 5, column: 9, code: 'BLOCK_AS_IMPLICIT_KEY' });
    expect(docs[1].object).toBeUndefined();
    expect(docs[2].object).toEqual({ b: 2 });
    const [tab] = parseManifests('a:\n\tb: 1\n');
    expect(tab.error?.code).toBe('TAB_AS_INDENT');
  });

  it('reports duplicate keys with their paths, keeping the last value as kubectl does', () => {
    const [doc] = parseManifests(`spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: a
        image: img1
        image: img2
  replicas: 2
`);
    expect(doc.error).toBeUndefined();
    expect(doc.duplicates).toEqual([
      { path: 'spec.template.spec.containers[0].image', line: 8, column: 9 },
      { path: 'spec.replicas', line: 9, column: 3 },
    ]);
    expect(doc.object).toMatchObject({ spec: { replicas: 2, template: { spec: { containers: [{ name: 'a', image: 'img2' }] } } } });
    expect(parseManifests('a: 1\nb: 2\n')[0].duplicates).toBeUndefined();
  });

  it('expands kind: List into its items, each pointing at its source range', () => {
    const docs = parseManifests(`apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: one
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: two
  data:
    k: v
    k: w
`);
    expect(docs).toHaveLength(2);
    expect(docs.map((d) => d.listItem)).toEqual([0, 1]);
    expect(docs[0].range).toEqual({ startLine: 4, endLine: 7 });
    expect(docs[1].range).toEqual({ startLine: 8, endLine: 14 });
    expect((docs[1].object as { metadata: { name: string } }).metadata.name).toBe('two');
    expect(docs[1].duplicates).toEqual([{ path: 'data.k', line: 14, column: 5 }]);
    expect(locateFieldPath(docs[1], 'metadata.name')).toMatchObject({ line: 11, column: 5, exact: true });
  });

  it('merges << keys, as go-yaml v2 does', () => {
    expect(objects('base: &b {a: 1, b: 2}\nderived:\n  <<: *b\n  b: 3\n')[0]).toEqual({ base: { a: 1, b: 2 }, derived: { a: 1, b: 3 } });
  });

  it('refuses alias bombs', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    const [doc] = parseManifests(lines.join('\n'));
    expect(doc.object).toBeUndefined();
    expect(doc.error?.message).toMatch(/Excessive alias count/);
  });

  it('keeps __proto__, constructor and prototype as plain data keys', () => {
    const [doc] = parseManifests('apiVersion: v1\nkind: ConfigMap\ndata:\n  __proto__: {polluted: yes}\n  constructor: cy\n  prototype: pz\n');
    const data = (doc.object as { data: Record<string, unknown> }).data;
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ polluted: true });
    expect(data.constructor).toBe('cy');
    expect(data.prototype).toBe('pz');
    // …and round-trips through toYaml
    const again = parseManifests(toYaml(doc.object))[0].object as { data: Record<string, unknown> };
    expect(Object.getOwnPropertyDescriptor(again.data, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('input limits, checked before parsing', () => {
  it('refuses inputs over 3 MiB', () => {
    const big = `a: "${'x'.repeat(yamlLimits.maxBytes)}"\n`;
    const [doc] = parseManifests(big);
    expect(doc.error?.code).toBe('LIMIT');
    expect(doc.error?.message).toMatch(/too large/);
    // multi-byte characters count as UTF-8 bytes
    expect(checkYamlLimits('é'.repeat(yamlLimits.maxBytes / 2 + 1)).error).toMatch(/too large/);
    expect(checkYamlLimits('é'.repeat(yamlLimits.maxBytes / 2 - 1)).error).toBeUndefined();
  });

  it('refuses more than 500 documents', () => {
    const many = Array.from({ length: 501 }, (_, i) => `a: ${i}`).join('\n---\n');
    expect(parseManifests(many)[0].error?.message).toMatch(/too many documents/);
    const ok = Array.from({ length: 500 }, (_, i) => `a: ${i}`).join('\n---\n');
    expect(parseManifests(ok)).toHaveLength(500);
  });

  it('refuses nesting deeper than 200, flow or block', () => {
    expect(parseManifests('['.repeat(201) + ']'.repeat(201))[0].error?.message).toMatch(/nested too deeply: more than 200 levels/);
    expect(parseManifests('a: ' + '['.repeat(150) + ']'.repeat(150))[0].error).toBeUndefined();
    // Deep enough to overflow the composer's recursion: the limit refuses it first, with its own text.
    expect(parseManifests('a: ' + '['.repeat(999) + ']'.repeat(999))[0].error?.message).toMatch(/nested too deeply/);
    const block = Array.from({ length: 202 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
    expect(parseManifests(block)[0].error?.message).toMatch(/nested too deeply/);
    const dashes = Array(201).fill('-').join(' ') + ' x\n';
    expect(parseManifests(dashes)[0].error?.message).toMatch(/nested too deeply/);
  });

  it('does not count brackets inside strings, comments or block scalars', () => {
    const text = `a: "${'['.repeat(2000)}"\nb: '${'{'.repeat(2000)}'\n# ${'['.repeat(2000)}\nc: |\n${Array.from({ length: 1100 }, (_, i) => `  ${' '.repeat(i)}x`).join('\n')}\nd: 1\n`;
    expect(checkYamlLimits(text).error).toBeUndefined();
    expect(parseManifests(text)[0].object).toMatchObject({ d: 1 });
  });
});

describe('parseYamlDocument', () => {
  it('reads the first document with its duplicate keys and their order', () => {
    const r = parseYamlDocument('kind: Pod\nspec:\n  a: 1\n  b: 2\n  a: 3\n---\nkind: Other\n');
    expect(r.value).toEqual({ kind: 'Pod', spec: { a: 3, b: 2 } });
    expect(r.duplicates.map((d) => d.path)).toEqual(['spec.a']);
    expect(r.keyOrder.get('spec')).toEqual(['a', 'b', 'a']);
    expect(parseYamlDocument('a: [1\n').error?.line).toBeGreaterThan(0);
  });
});

describe('field paths → positions', () => {
  const text = `# comment
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
      - name: sidecar
        image: busybox
`;
  const [doc] = parseManifests(text);

  it('parses field paths', () => {
    expect(parseFieldPath('spec.template.spec.containers[0].image')).toEqual(['spec', 'template', 'spec', 'containers', 0, 'image']);
    expect(parseFieldPath('metadata.labels[app.kubernetes.io/name]')).toEqual(['metadata', 'labels', 'app.kubernetes.io/name']);
    expect(parseFieldPath('.spec.foo')).toEqual(['spec', 'foo']);
  });

  it('maps a field path to the line and column of its key in the whole input', () => {
    expect(locateFieldPath(doc, 'spec.template.spec.containers[1].image')).toMatchObject({ line: 16, column: 9, exact: true });
    expect(locateFieldPath(doc, 'spec.template.spec.containers[0]')).toMatchObject({ line: 13, column: 9, exact: true });
    expect(locateFieldPath(doc, 'metadata.labels[app.kubernetes.io/name]')).toMatchObject({ line: 8, column: 5, endLine: 8, exact: true });
    expect(locateFieldPath(doc, 'metadata.name')).toMatchObject({ line: 6, column: 3, endColumn: 12 });
  });

  it('falls back to the deepest existing ancestor', () => {
    expect(locateFieldPath(doc, 'spec.template.spec.containers[0].resources.limits')).toMatchObject({ line: 13, exact: false });
    expect(locateFieldPath(doc, 'spec.selector')).toMatchObject({ line: 9, column: 1, exact: false });
  });
});

describe('toYaml', () => {
  it('writes kubectl-style YAML', () => {
    const out = toYaml({
      metadata: { name: 'web', annotations: { 'deployment.kubernetes.io/revision': '1' } },
      apiVersion: 'apps/v1',
      spec: { containers: [{ name: 'a', args: ['yes', 'a: b', 'plain', ''], command: ['sh', '-c', 'echo 1\necho 2\n'] }], replicas: 3 },
      kind: 'Deployment',
    });
    expect(out).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "1"
  name: web
spec:
  containers:
  - args:
    - "yes"
    - 'a: b'
    - plain
    - ""
    command:
    - sh
    - -c
    - |
      echo 1
      echo 2
    name: a
  replicas: 3
`);
  });

  it('does not fold long lines', () => {
    const long = 'word '.repeat(60).trim();
    expect(toYaml({ a: long })).toBe(`a: ${long}\n`);
  });

  it('round-trips through parseManifests (property)', () => {
    const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '<<');
    const safeDouble = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d) || Number.isSafeInteger(d));
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), safeDouble);
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(key, tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (obj) => {
        const [doc] = parseManifests(toYaml(obj));
        expect(doc.error).toBeUndefined();
        expect(doc.object).toEqual(JSON.parse(JSON.stringify(obj)));
      }),
      { numRuns: 200 },
    );
  });
});

const manifestsDir = join(__dirname, '../../../../shared/manifests');

describe.runIf(existsSync(manifestsDir))('the Kubernetes docs manifests', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((e) => {
      const p = join(dir, e);
      return statSync(p).isDirectory() ? files(p) : /\.ya?ml$/.test(e) ? [p] : [];
    });

  it('all parse into objects with apiVersion and kind', () => {
    const all = files(manifestsDir);
    expect(all.length).toBeGreaterThan(50);
    let count = 0;
    for (const f of all) {
      for (const doc of parseManifests(readFileSync(f, 'utf8'))) {
        expect(doc.error, f).toBeUndefined();
        expect(doc.duplicates, f).toBeUndefined();
        expect(doc.object, f).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String) });
        count++;
      }
    }
    expect(count).toBeGreaterThan(all.length);
  });
});
