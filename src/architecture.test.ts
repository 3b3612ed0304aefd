// Enforces the layering of design.md §2: the control plane is pure TypeScript that runs in Node and in the
// worker (no UI libraries, no UI or worker code, no wall-clock time or ambient randomness), and the UI talks to
// the cluster only through the protocol (it never imports the control plane).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');
const src = join(root, 'src');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (/\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// Tests and their fixtures (*.fixture.ts: test-only setup shared by several tests).
const isTest = (file: string) => /\.(test|fixture)\.tsx?$/.test(file);

interface ImportRef {
  specifier: string;
  line: number;
  typeOnly: boolean;
}

/** Static imports, re-exports and dynamic import()s, with their line numbers. */
function importsOf(text: string): ImportRef[] {
  const refs: ImportRef[] = [];
  const patterns = [
    /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?\sfrom\s+['"]([^'"]+)['"]/g,
    /(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  patterns.forEach((re, i) => {
    for (const m of text.matchAll(re)) {
      const specifier = i === 0 ? m[3] : m[1];
      const line = text.slice(0, m.index! + m[0].length).split('\n').length;
      refs.push({ specifier, line, typeOnly: i === 0 && !!m[2] });
    }
  });
  return refs;
}

/** The src-relative folder an import lands in ("control-plane/store/types"), or the package name. */
function target(src: string, file: string, specifier: string): { kind: 'src'; path: string } | { kind: 'package'; name: string } {
  if (specifier.startsWith('.')) return { kind: 'src', path: relative(src, resolve(dirname(file), specifier)).split(sep).join('/') };
  const parts = specifier.split('/');
  return { kind: 'package', name: specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
}

const uiLibraries = [/^react$/, /^react-dom$/, /^zustand$/, /^@xyflow\//, /^monaco-editor$/, /^@monaco-editor\//];

/** Strips comments and string/template contents so a forbidden call named in prose does not count. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/\/\/[^\n]*/g, '')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (m) => m.replace(/[^\n]/g, ' '));
}

const forbiddenCalls: [RegExp, string][] = [
  [/\bDate\.now\s*\(/, 'Date.now() (use clock.now())'],
  [/\bnew\s+Date\s*\(\s*\)/, 'new Date() without an argument (use clock.now())'],
  [/\bMath\.random\s*\(/, 'Math.random() (use the seeded rng)'],
  [/(?<![.\w])setTimeout\s*\(/, 'setTimeout (use clock.setTimer)'],
  [/(?<![.\w])setInterval\s*\(/, 'setInterval (use clock.setTimer)'],
];

function violations(src: string): string[] {
  const found: string[] = [];
  for (const file of walk(src)) {
    const rel = relative(src, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const layer = rel.split('/')[0];
    for (const ref of importsOf(text)) {
      const t = target(src, file, ref.specifier);
      const where = `${rel}:${ref.line} imports ${ref.specifier}`;
      if (layer === 'control-plane') {
        if (t.kind === 'package' && uiLibraries.some((re) => re.test(t.name))) found.push(`${where}: the control plane must not use UI libraries`);
        if (t.kind === 'src' && (t.path.startsWith('ui/') || t.path.startsWith('worker/'))) found.push(`${where}: the control plane must not import ${t.path.split('/')[0]}/`);
      }
      // A UI test may start a whole headless cluster (the documented entry point) to render real objects.
      const headlessInTest = isTest(file) && t.kind === 'src' && t.path === 'worker/headless';
      if (layer === 'ui' && t.kind === 'src' && !headlessInTest && (t.path.startsWith('control-plane/') || t.path.startsWith('worker/'))) {
        found.push(`${where}: the UI reaches the cluster only through src/shared/protocol`);
      }
      if (layer === 'shared' && t.kind === 'src' && !t.path.startsWith('shared/')) {
        found.push(`${where}: shared code imports only shared code`);
      }
      if (layer === 'shared' && t.kind === 'package' && uiLibraries.some((re) => re.test(t.name))) found.push(`${where}: shared code must not use UI libraries`);
    }
    if (layer === 'control-plane' && !isTest(file)) {
      const lines = code(text).split('\n');
      lines.forEach((line, i) => {
        for (const [re, what] of forbiddenCalls) if (re.test(line)) found.push(`${rel}:${i + 1} uses ${what}`);
      });
    }
  }
  return found;
}

describe('architecture', () => {
  it('keeps the layers apart and the control plane deterministic', () => {
    expect(violations(src)).toEqual([]);
  });

  it('reports each kind of violation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubeplay-arch-'));
    const put = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    try {
      put('control-plane/bad.ts', "import { create } from 'zustand';\nimport { App } from '../ui/App';\nexport const t = Date.now();\nconst r = Math.random();\nsetInterval(() => {}, 1);\n");
      put('control-plane/ok.test.ts', 'const t = Date.now();\nsetTimeout(() => {}, 1);\n');
      put('control-plane/clock.ts', "// new Date() is not allowed\nexport const at = (ms: number) => new Date(ms);\n");
      put('ui/page.tsx', "import { createCluster } from '../control-plane/cluster';\nimport type { X } from '../worker/serve';\n");
      put('shared/protocol/m.ts', "import type { ApiRequest } from '../../control-plane/apiserver/types';\nimport { store } from '../../control-plane/store/mvcc-store';\n");
      expect(violations(dir).sort()).toEqual([
        'control-plane/bad.ts:1 imports zustand: the control plane must not use UI libraries',
        'control-plane/bad.ts:2 imports ../ui/App: the control plane must not import ui/',
        'control-plane/bad.ts:3 uses Date.now() (use clock.now())',
        'control-plane/bad.ts:4 uses Math.random() (use the seeded rng)',
        'control-plane/bad.ts:5 uses setInterval (use clock.setTimer)',
        'shared/protocol/m.ts:1 imports ../../control-plane/apiserver/types: shared code imports only shared code',
        'shared/protocol/m.ts:2 imports ../../control-plane/store/mvcc-store: shared code imports only shared code',
        'ui/page.tsx:1 imports ../control-plane/cluster: the UI reaches the cluster only through src/shared/protocol',
        'ui/page.tsx:2 imports ../worker/serve: the UI reaches the cluster only through src/shared/protocol',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recognises every import form', () => {
    const refs = importsOf(`import a from './a';\nimport type { B } from "../b";\nexport { c } from './c';\nimport './side-effect.css';\nconst d = await import('./d');\nimport {\n  e,\n} from 'react';`);
    expect(refs.map((r) => [r.specifier, r.typeOnly])).toEqual(
      expect.arrayContaining([
        ['./a', false],
        ['../b', true],
        ['./c', false],
        ['./side-effect.css', false],
        ['./d', false],
        ['react', false],
      ]),
    );
    expect(refs).toHaveLength(6);
  });

  it('sees forbidden calls in code but not in comments or strings', () => {
    const src = code(`// Date.now() is forbidden\nconst s = 'Math.random()';\nconst t = Date.now();\nclock.setTimeout(1);\nsetTimeout(f, 1);`);
    const hits = src.split('\n').map((line) => forbiddenCalls.filter(([re]) => re.test(line)).map(([, w]) => w.split(' ')[0]));
    expect(hits).toEqual([[], [], ['Date.now()'], [], ['setTimeout']]);
  });
});
