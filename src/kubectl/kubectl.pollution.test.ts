// Prototype pollution through kubectl (issue 9, hostile input): "__proto__", "constructor" and "prototype" keys in
// what kubectl create/apply/label/annotate build and send (from literals, manifests, the label/annotation merge
// patches and the three-way merge of client-side apply). kubectl has no `patch` command yet: the API server's
// pollution tests cover every patch type. stay plain data: no prototype changes, and get reads them back.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import type { KubeObject } from '../shared/api/types';
import { kubectl } from './cli/testing';
import { commandTestCluster } from './testing';

/** ConfigMap data keys may be "__proto__"; label and annotation keys may not (they must be qualified names). */
const dataKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'polluted'] as const;
const labelKeys = ['constructor', 'prototype', 'toString', 'polluted'] as const;
const values = ['x', 'y', 'polluted', '1'] as const;

const objectPrototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();
function assertNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(objectPrototypeNames);
}

let cluster: Cluster;
beforeAll(async () => {
  cluster = await commandTestCluster();
});
afterAll(async () => {
  await cluster?.close();
});

function getConfigMap(name: string): KubeObject & { data?: Record<string, string> } {
  return cluster.client.configMaps.get(name, { namespace: 'default' }) as KubeObject & { data?: Record<string, string> };
}

async function run(line: string, stdin?: string): Promise<string> {
  const r = await kubectl(cluster, line, stdin !== undefined ? { stdin } : {});
  expect(r.stderr, line).toBe('');
  expect(r.exitCode, line).toBe(0);
  assertNoPollution();
  return r.stdout;
}

/** Each key of want is an own property of got with the same value. */
function expectOwn(got: Record<string, string> | undefined, want: Record<string, string>, what: string): void {
  for (const [k, v] of Object.entries(want)) {
    expect(got !== undefined && Object.hasOwn(got, k), `${what} has own key ${k}`).toBe(true);
    expect(got?.[k], `${what}.${k}`).toBe(v);
  }
}

/** A YAML flow map ({"__proto__": "x", …}): JSON is YAML. */
const flow = (m: Record<string, string>) => JSON.stringify(m);

const stringMap = <K extends string>(keys: readonly K[]) =>
  fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...values)), { selector: ([k]) => k, minLength: 1, maxLength: keys.length }).map((kvs) => {
    const out: Record<string, string> = {};
    for (const [k, v] of kvs) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });

const Verb = {
  CreateFromLiteral: 'create configmap --from-literal',
  CreateSecret: 'create secret generic --from-literal',
  CreateFile: 'create -f',
  Apply: 'apply -f (twice: the three-way merge patch)',
  ServerSideApply: 'apply --server-side',
  Label: 'label',
  Annotate: 'annotate',
} as const;
type Verb = (typeof Verb)[keyof typeof Verb];

let seq = 0;

async function exercise(verb: Verb, data: Record<string, string>, next: Record<string, string>, labels: Record<string, string>): Promise<void> {
  const name = `p${++seq}`;
  const manifest = (d: Record<string, string>, l: Record<string, string>) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels: ${flow(l)}\n  annotations: ${flow(l)}\ndata: ${flow(d)}\n`;
  const empty = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
  switch (verb) {
    case Verb.CreateFromLiteral: {
      const literals = Object.entries(data).map(([k, v]) => `--from-literal=${k}=${v}`);
      expect(await run(`kubectl create configmap ${name} ${literals.join(' ')}`)).toBe(`configmap/${name} created\n`);
      expectOwn(getConfigMap(name).data, data, 'data');
      return;
    }
    case Verb.CreateSecret: {
      const literals = Object.entries(data).map(([k, v]) => `--from-literal=${k}=${v}`);
      await run(`kubectl create secret generic ${name} ${literals.join(' ')}`);
      const secret = cluster.client.secrets.get(name, { namespace: 'default' }) as KubeObject & { data?: Record<string, string> };
      const encoded: Record<string, string> = {};
      for (const [k, v] of Object.entries(data)) Object.defineProperty(encoded, k, { value: btoa(v), enumerable: true });
      expectOwn(secret.data, encoded, 'secret data');
      return;
    }
    case Verb.CreateFile:
      expect(await run('kubectl create -f -', manifest(data, labels))).toBe(`configmap/${name} created\n`);
      expectOwn(getConfigMap(name).data, data, 'data');
      expectOwn(getConfigMap(name).metadata.labels, labels, 'labels');
      return;
    case Verb.Apply: {
      await run('kubectl apply -f -', manifest(data, labels));
      expectOwn(getConfigMap(name).data, data, 'data');
      // The second apply sends the three-way merge patch: changed values, and deletions of keys no longer given.
      await run('kubectl apply -f -', manifest(next, labels));
      const got = getConfigMap(name);
      expectOwn(got.data, next, 'data after the second apply');
      for (const k of Object.keys(data)) if (!Object.hasOwn(next, k)) expect(Object.hasOwn(got.data ?? {}, k), `removed key ${k}`).toBe(false);
      expectOwn(got.metadata.labels, labels, 'labels');
      return;
    }
    case Verb.ServerSideApply:
      await run('kubectl apply --server-side -f -', manifest(data, labels));
      await run('kubectl apply --server-side -f -', manifest(next, labels));
      expectOwn(getConfigMap(name).data, next, 'data');
      expectOwn(getConfigMap(name).metadata.annotations, labels, 'annotations');
      return;
    case Verb.Label:
    case Verb.Annotate: {
      await run('kubectl create -f -', empty);
      const pairs = Object.entries(labels).map(([k, v]) => `${k}=${v}`);
      const word = verb === Verb.Label ? 'labeled' : 'annotated';
      expect(await run(`kubectl ${verb} configmap ${name} ${pairs.join(' ')}`)).toBe(`configmap/${name} ${word}\n`);
      const meta = getConfigMap(name).metadata;
      expectOwn(verb === Verb.Label ? meta.labels : meta.annotations, labels, verb);
      // …and removed again with KEY-.
      const [first] = Object.keys(labels);
      await run(`kubectl ${verb} configmap ${name} ${first}-`);
      const after = getConfigMap(name).metadata;
      expect(Object.hasOwn((verb === Verb.Label ? after.labels : after.annotations) ?? {}, first)).toBe(false);
      return;
    }
  }
}

describe('prototype pollution through kubectl', () => {
  it('create, apply (client- and server-side), label and annotate keep hostile keys as data', async () => {
    const seen = new Set<Verb>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.values(Verb)), stringMap(dataKeys), stringMap(dataKeys), stringMap(labelKeys), async (verb, data, next, labels) => {
        seen.add(verb);
        await exercise(verb, data, next, labels);
      }),
      { numRuns: 60, seed: 1717 },
    );
    expect([...seen].sort()).toEqual(Object.values(Verb).sort());
  }, 120_000);

  it('prints hostile keys as data in get -o json, -o yaml and describe', async () => {
    await run('kubectl create configmap printed --from-literal=__proto__=p --from-literal=constructor=c');
    expect(JSON.parse(await run('kubectl get configmap printed -o json')).data).toEqual(JSON.parse('{"__proto__":"p","constructor":"c"}'));
    expect(await run('kubectl get configmap printed -o yaml')).toContain('data:\n  __proto__: p\n  constructor: c\n');
    expect(await run('kubectl describe configmap printed')).toContain('__proto__:\n----\np\n');
  });

  it('kubectl edit sends a changed "__proto__" data key in its patch', async () => {
    await run('kubectl create configmap edited --from-literal=__proto__=before --from-literal=constructor=c');
    const r = await kubectl(cluster, 'kubectl edit configmap edited', { openEditor: (yaml) => yaml.replace('__proto__: before', '__proto__: after') });
    expect(r.stdout).toBe('configmap/edited edited\n');
    expect(getConfigMap('edited').data).toEqual(JSON.parse('{"__proto__":"after","constructor":"c"}'));
    assertNoPollution();
  });

  it('sends a "__proto__" label to the server, which refuses it as an invalid key', async () => {
    await run('kubectl create configmap refused');
    const r = await kubectl(cluster, 'kubectl label configmap refused __proto__=x');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('metadata.labels: Invalid value: "__proto__": name part must consist of alphanumeric characters');
    assertNoPollution();
  });
});
