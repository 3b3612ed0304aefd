// Hostile YAML (issue 9, hostile input): alias bombs are refused by the alias count limit; inputs over the size,
// document-count and depth limits are refused before the YAML parser runs. Checked through both ways a manifest
// reaches the cluster: the editor's Apply (api/apply → applyManifest) and kubectl apply/create in the console
// (runKubectl reading stdin or the editor buffer). Nothing is created, and the error names the limit.
import * as yaml from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { kubectl } from '../kubectl/cli/testing';
import { commandTestCluster } from '../kubectl/testing';
import { yamlLimits } from '../shared/lib/yaml';
import { applyManifest } from './apply';

// Counts the parser's runs, to show the limits are checked before it.
vi.mock('yaml', async (importOriginal) => {
  const original = await importOriginal<typeof import('yaml')>();
  return { ...original, parseAllDocuments: vi.fn(original.parseAllDocuments) };
});

let cluster: Cluster;
beforeAll(async () => {
  cluster = await commandTestCluster();
});
afterAll(async () => {
  await cluster?.close();
});
beforeEach(() => {
  vi.mocked(yaml.parseAllDocuments).mockClear();
});

const configMap = (name: string, data = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${data}`;

/** The "billion laughs": 9^7 strings from a few hundred bytes of anchors and aliases. */
const aliasBomb = configMap(
  'bomb',
  `data:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n${['a', 'b', 'c', 'd', 'e', 'f']
    .map((prev, i) => `  ${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`)
    .join('\n')}\n`,
);
/** Aliases through merge keys count too. */
const mergeBomb = `base: &m0 {a: "lol", b: "lol"}\n${Array.from({ length: 12 }, (_, i) => `m${i + 1}: &m${i + 1} {<<: [*m${i}, *m${i}, *m${i}], k${i}: x}`).join('\n')}\n${configMap('merge-bomb')}`;
const oversized = configMap('big', `data:\n  x: "${'a'.repeat(yamlLimits.maxBytes)}"\n`);
/** Multi-byte characters count as their UTF-8 bytes, as the request body's size. */
const oversizedUtf8 = configMap('big-utf8', `data:\n  x: "${'é'.repeat(yamlLimits.maxBytes / 2)}"\n`);
const tooManyDocuments = Array.from({ length: yamlLimits.maxDocuments + 1 }, (_, i) => configMap(`many-${i}`)).join('---\n');
const tooDeepFlow = configMap('deep-flow', `data: ${'['.repeat(yamlLimits.maxDepth + 1)}${']'.repeat(yamlLimits.maxDepth + 1)}\n`);
const tooDeepBlock = configMap('deep-block', `data:\n${Array.from({ length: yamlLimits.maxDepth + 1 }, (_, i) => `${' '.repeat(i + 1)}k:`).join('\n')} x\n`);

const refusedBeforeParsing = [
  { name: 'an input over the size limit', text: oversized, message: `input is too large: more than ${yamlLimits.maxBytes} bytes (the API server's request size limit)`, created: 'big' },
  { name: 'an input over the size limit in UTF-8 bytes', text: oversizedUtf8, message: `input is too large: more than ${yamlLimits.maxBytes} bytes`, created: 'big-utf8' },
  { name: 'too many documents', text: tooManyDocuments, message: `too many documents: more than ${yamlLimits.maxDocuments} (the limit is ${yamlLimits.maxDocuments})`, created: 'many-0' },
  { name: 'flow collections nested too deeply', text: tooDeepFlow, message: `input is nested too deeply: more than ${yamlLimits.maxDepth} levels`, created: 'deep-flow' },
  { name: 'block mappings nested too deeply', text: tooDeepBlock, message: `input is nested too deeply: more than ${yamlLimits.maxDepth} levels`, created: 'deep-block' },
];

function exists(name: string): boolean {
  return cluster.client.configMaps.list({ namespace: 'default' }).items.some((c) => c.metadata.name === name);
}

function editorApply(manifest: string) {
  return applyManifest({ apiserver: cluster.apiserver, registry: cluster.registry, store: cluster.store }, { manifest }).outcomes;
}

describe('hostile YAML through the editor apply path and the console', () => {
  for (const c of refusedBeforeParsing) {
    it(`refuses ${c.name} before parsing`, async () => {
      const revision = cluster.store.revision;
      const outcomes = editorApply(c.text);
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toMatchObject({ ok: false, document: 1, line: 1, column: 1 });
      expect(outcomes[0].ok ? '' : outcomes[0].status.message).toContain(`error parsing manifest: ${c.message}`);
      expect(outcomes[0].ok ? 0 : outcomes[0].status.code).toBe(400);

      for (const line of ['kubectl apply -f -', 'kubectl create -f -']) {
        const r = await kubectl(cluster, line, { stdin: c.text });
        expect(r.exitCode).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: ${c.message}`);
      }
      const fromEditor = await kubectl(cluster, 'kubectl apply -f editor', { editorBuffer: c.text });
      expect(fromEditor.stderr).toContain(c.message);

      expect(yaml.parseAllDocuments).not.toHaveBeenCalled();
      expect(exists(c.created)).toBe(false);
      expect(cluster.store.revision).toBe(revision);
    });
  }

  for (const [name, text] of [
    ['an alias bomb', aliasBomb],
    ['an alias bomb through merge keys', mergeBomb],
  ] as const) {
    it(`refuses ${name} by the alias count limit`, async () => {
      const revision = cluster.store.revision;
      const outcomes = editorApply(text);
      expect(outcomes).toHaveLength(1);
      expect(outcomes[0]).toMatchObject({ ok: false, document: 1 });
      expect(outcomes[0].ok ? '' : outcomes[0].status.message).toBe('error parsing manifest: Excessive alias count indicates a resource exhaustion attack');

      const r = await kubectl(cluster, 'kubectl apply -f -', { stdin: text });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('error converting YAML to JSON: yaml: line 1: Excessive alias count indicates a resource exhaustion attack');
      expect(exists('bomb') || exists('merge-bomb')).toBe(false);
      expect(cluster.store.revision).toBe(revision);
    });
  }

  it('still applies what is within every limit: a few aliases, and exactly the document limit', async () => {
    const aliases = configMap('aliased', 'data:\n  a: &v "shared"\n  b: *v\n  c: *v\n');
    expect(editorApply(aliases)).toMatchObject([{ ok: true, action: 'created' }]);
    expect(cluster.client.configMaps.get('aliased', { namespace: 'default' }).data).toEqual({ a: 'shared', b: 'shared', c: 'shared' });

    const atLimit = Array.from({ length: yamlLimits.maxDocuments }, (_, i) => configMap(`at-limit-${i}`)).join('---\n');
    const r = await kubectl(cluster, 'kubectl apply -f -', { stdin: atLimit });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(yamlLimits.maxDocuments);
    expect(exists(`at-limit-${yamlLimits.maxDocuments - 1}`)).toBe(true);
  });

  it('refuses nesting deep enough to overflow the YAML composer with the limit text, not a stack overflow', async () => {
    // 900 levels would overflow the composer's recursion in V8 (~800 flow levels); the limit scan stops it first.
    const deep = configMap('deep-900', `data: ${'['.repeat(900)}${']'.repeat(900)}\n`);
    const outcomes = editorApply(deep);
    expect(outcomes).toMatchObject([{ ok: false, document: 1 }]);
    expect(JSON.stringify(outcomes)).toContain(`input is nested too deeply: more than ${yamlLimits.maxDepth} levels`);
    const r = await kubectl(cluster, 'kubectl apply -f -', { stdin: deep });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('input is nested too deeply');
    expect(exists('deep-900')).toBe(false);
    // The cluster still serves requests.
    expect(editorApply(configMap('after-deep'))).toMatchObject([{ ok: true, action: 'created' }]);
  });
});
