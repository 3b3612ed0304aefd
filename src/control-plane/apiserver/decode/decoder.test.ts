import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ResourceType, builtinResourceTypes } from '../../../shared/api/resources';
import { definitionNameForKind } from '../../../shared/api/schemas';
import { StatusError, isStatusError } from '../../../shared/api/status';
import { type KubeObject, parseApiVersion } from '../../../shared/api/types';
import { toStoredBy } from '../storage/object-codec';
import { deepFreeze } from '../../../shared/lib/deep-freeze';
import { parseManifests } from '../../../shared/lib/yaml';
import type { FieldValidation } from '../types';
import { type DecodeArgs, decodeObject, unknownKindError } from './decoder';
import { codecForDefinition } from './typed';

const rt = (kind: string, group = ''): ResourceType => {
  const t = builtinResourceTypes.find((r) => r.kind === kind && r.group === group);
  if (!t) throw new Error(`no resource type ${group}/${kind}`);
  return t;
};
const deployments = rt('Deployment', 'apps');
const pods = rt('Pod');
const secrets = rt('Secret');
const configmaps = rt('ConfigMap');

function decodeError(args: Omit<DecodeArgs, 'fieldValidation'> & { fieldValidation?: FieldValidation }): StatusError {
  try {
    decodeObject({ fieldValidation: 'Strict', ...args });
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('decoded without error');
}

const pod = (spec: unknown, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec, ...extra });
const deployment = (spec: unknown) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec });

describe('strict field validation (A7, B4)', () => {
  const body = `{
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {"name": "my-dep", "labels": {"app": "nginx"}},
    "spec": {
      "unknownField": "foo",
      "replicas": 2,
      "replicas": 3,
      "selector": {"matchLabels": {"app": "nginx"}},
      "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}]}}
    }
  }`;

  it('Strict: refuses unknown and duplicate fields with the conformance text, unknown first in document order', () => {
    const err = decodeError({ rawBody: body, resourceType: deployments });
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"',
    );
  });

  it('reports unknown metadata fields as metadata.<field>', () => {
    const err = decodeError({ body: { ...deployment({}), metadata: { name: 'd', unknownMeta: 'foo' } }, resourceType: deployments });
    expect(err.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "metadata.unknownMeta"');
  });

  it('B4: spec.replicaz', () => {
    const err = decodeError({ body: deployment({ replicaz: 3 }), resourceType: deployments });
    expect(err.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicaz"');
  });

  it('writes paths with array indices and map keys', () => {
    const err = decodeError({
      body: pod({ containers: [{ name: 'a' }, { name: 'b', ports: [{ containerPort: 80, hostPorts: 1 }], resources: { limitz: {} } }] }),
      resourceType: pods,
    });
    expect(err.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.containers[1].ports[0].hostPorts", unknown field "spec.containers[1].resources.limitz"',
    );
  });

  it('Warn: accepts, drops unknown fields and returns each finding as a warning', () => {
    const { object, warnings } = decodeObject({ rawBody: body, resourceType: deployments, fieldValidation: 'Warn' });
    expect(warnings).toEqual(['unknown field "spec.unknownField"', 'duplicate field "spec.replicas"']);
    expect(object.spec).not.toHaveProperty('unknownField');
    expect((object.spec as { replicas: number }).replicas).toBe(3);
  });

  it('Ignore: accepts silently and still drops unknown fields', () => {
    const { object, warnings } = decodeObject({ rawBody: body, resourceType: deployments, fieldValidation: 'Ignore' });
    expect(warnings).toEqual([]);
    expect(object.spec).not.toHaveProperty('unknownField');
  });

  it('finds duplicate keys in YAML bodies too', () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  name: d\ndata:\n  a: "1"\n  a: "2"\n';
    const err = decodeError({ rawBody: yaml, resourceType: configmaps });
    expect(err.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name", duplicate field "data.a"');
    const warned = decodeObject({ rawBody: yaml, resourceType: configmaps, fieldValidation: 'Warn' });
    expect(warned.object).toMatchObject({ metadata: { name: 'd' }, data: { a: '2' } });
  });

  it('is case-sensitive, as the API server decoder is', () => {
    const err = decodeError({ body: deployment({ Replicas: 1 }), resourceType: deployments });
    expect(err.message).toContain('unknown field "spec.Replicas"');
  });
});

describe('type errors (B5), as encoding/json words them', () => {
  const cases: [string, unknown, ResourceType, string][] = [
    ['string into int32', deployment({ replicas: 'three' }), deployments, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32'],
    ['fraction into int32', deployment({ replicas: 1.5 }), deployments, 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    ['int32 overflow', deployment({ replicas: 3000000000 }), deployments, 'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32'],
    ['string into struct', deployment('x'), deployments, 'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec'],
    ['number into string in an array element', pod({ containers: [{ name: 'a', image: 5 }] }), pods, 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
    ['yes → bool into an env value (B19)', pod({ containers: [{ name: 'a', env: [{ name: 'X', value: true }] }] }), pods, 'json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string'],
    ['number into a label value', { ...pod({}), metadata: { name: 'p', labels: { a: 1 } } }, pods, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    ['object into a slice', pod({ containers: {} }), pods, 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container'],
    ['array into a map', { ...pod({}), metadata: { name: 'p', labels: [] } }, pods, 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    ['named string type', pod({ containers: [{ name: 'a', ports: [{ containerPort: 80, protocol: 6 }] }] }), pods, 'json: cannot unmarshal number into Go struct field ContainerPort.spec.containers.ports.protocol of type v1.Protocol'],
    ['string into bool', pod({ hostNetwork: 'true' }), pods, 'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool'],
    ['top-level field', { ...pod({}), metadata: 'x' }, pods, 'json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta'],
    ['IntOrString (nested json.Unmarshal, no context)', pod({ containers: [{ name: 'a', livenessProbe: { httpGet: { port: true } } }] }), pods, 'json: cannot unmarshal bool into Go value of type int32'],
    ['Time', { ...pod({}), metadata: { name: 'p', creationTimestamp: 'yesterday' } }, pods, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
    ['Time out of range', { ...pod({}), metadata: { name: 'p', creationTimestamp: '2024-13-01T00:00:00Z' } }, pods, 'parsing time "2024-13-01T00:00:00Z": month out of range'],
  ];
  it.each(cases)('%s', (_name, body, resourceType, text) => {
    const err = decodeError({ body, resourceType });
    expect(err.code).toBe(400);
    expect(err.message).toBe(`${resourceType.kind} in version "${resourceType.version}" cannot be handled as a ${resourceType.kind}: ${text}`);
  });

  it('a type error wins over strictness errors, in every mode', () => {
    for (const fieldValidation of ['Strict', 'Warn', 'Ignore'] as const) {
      const err = decodeError({ body: deployment({ replicaz: 1, replicas: 'x' }), resourceType: deployments, fieldValidation });
      expect(err.message).toContain('cannot unmarshal string');
    }
  });

  it('reads YAML 1.1 the way kubectl sends it: `value: yes` is a bool', () => {
    const err = decodeError({
      rawBody: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n    env:\n    - {name: X, value: yes}\n',
      resourceType: pods,
    });
    expect(err.message).toContain('cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string');
  });
});

describe('quantities (B17), bytes (B33), times and int-or-strings', () => {
  it('refuses malformed quantities with the parser text, wrapped', () => {
    for (const q of ['1.5.5Gi', '500mb']) {
      const err = decodeError({ body: pod({ containers: [{ name: 'a', resources: { limits: { memory: q } } }] }), resourceType: pods });
      expect(err.message).toBe(
        "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      );
    }
    const suffix = decodeError({ body: pod({ containers: [{ name: 'a', resources: { requests: { cpu: '1kk' } } }] }), resourceType: pods });
    expect(suffix.message).toBe('Pod in version "v1" cannot be handled as a Pod: unable to parse quantity\'s suffix');
  });

  it('stores quantities in canonical form', () => {
    const { object } = decodeObject({
      body: pod({ containers: [{ name: 'a', resources: { limits: { cpu: 0.5, memory: '1024Mi' }, requests: { cpu: '1000m', memory: 128974848 } } }] }),
      resourceType: pods,
      fieldValidation: 'Strict',
    });
    const resources = (object.spec as { containers: { resources: unknown }[] }).containers[0].resources;
    expect(resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '1', memory: '128974848' } });
  });

  it('refuses Secret data that is not base64, at the byte Go reports', () => {
    const cases: [string, number][] = [
      ['abc!', 3],
      ['YWJj=', 4],
      ['YQ', 0],
      ['YWJjZA==x', 8],
      ['é', 0],
    ];
    for (const [value, byte] of cases) {
      const err = decodeError({ body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: value } }, resourceType: secrets });
      expect(err.message, value).toBe(`Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte ${byte}`);
    }
  });

  it('stores []byte fields re-encoded, as Go decodes and re-encodes them', () => {
    const { object } = decodeObject({
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { a: 'bXkt\nYXBw', b: '' }, stringData: { c: 'plain' } },
      resourceType: secrets,
      fieldValidation: 'Strict',
    });
    expect(object.data).toEqual({ a: 'bXktYXBw', b: '' });
    expect(object.stringData).toEqual({ c: 'plain' });
  });

  it('normalises times to UTC seconds (Time) and microseconds (MicroTime)', () => {
    const { object } = decodeObject({
      body: { ...pod({}), metadata: { name: 'p', creationTimestamp: '2024-01-01T10:00:00.5+02:00' } },
      resourceType: pods,
      fieldValidation: 'Strict',
    });
    expect(object.metadata.creationTimestamp).toBe('2024-01-01T08:00:00Z');
    const lease = decodeObject({
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { renewTime: '2024-01-01T00:00:00.123456Z' } },
      resourceType: rt('Lease', 'coordination.k8s.io'),
      fieldValidation: 'Strict',
    });
    expect((lease.object.spec as { renewTime: string }).renewTime).toBe('2024-01-01T00:00:00.123456Z');
  });

  it('accepts ints and strings for IntOrString', () => {
    const { object } = decodeObject({
      body: deployment({ strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } }),
      resourceType: deployments,
      fieldValidation: 'Strict',
    });
    expect(object.spec).toEqual({ strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } });
  });
});

describe('integers beyond 2^53 (B23)', () => {
  it('refuses them instead of rounding, from YAML, JSON or BigInt bodies', () => {
    const text = 'Pod in version "v1" cannot be handled as a Pod: spec.activeDeadlineSeconds: Invalid value: 9007199254740993: exceeds JavaScript safe integer range (playground limitation)';
    expect(decodeError({ rawBody: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  activeDeadlineSeconds: 9007199254740993\n', resourceType: pods }).message).toBe(text);
    expect(decodeError({ rawBody: '{"apiVersion":"v1","kind":"Pod","spec":{"activeDeadlineSeconds":9007199254740993}}', resourceType: pods }).message).toBe(text);
    expect(decodeError({ body: pod({ activeDeadlineSeconds: 9007199254740993n }), resourceType: pods }).message).toBe(text);
  });

  it('beyond int64 it is Go’s own overflow error', () => {
    const err = decodeError({ rawBody: '{"apiVersion":"v1","kind":"Pod","spec":{"activeDeadlineSeconds":99999999999999999999}}', resourceType: pods });
    expect(err.message).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 99999999999999999999 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64',
    );
  });

  it('also inside free-form JSON (RawExtension)', () => {
    const err = decodeError({
      body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { n: 2n ** 60n } },
      resourceType: rt('ControllerRevision', 'apps'),
    });
    expect(err.message).toContain('data.n: Invalid value: 1152921504606846976: exceeds JavaScript safe integer range');
  });

  it('keeps safe BigInts as numbers', () => {
    const { object } = decodeObject({ body: pod({ activeDeadlineSeconds: 30n }), resourceType: pods, fieldValidation: 'Strict' });
    expect((object.spec as { activeDeadlineSeconds: unknown }).activeDeadlineSeconds).toBe(30);
  });
});

describe('apiVersion and kind (B6, B7)', () => {
  it('refuses a body without kind or apiVersion with the runtime/error.go texts', () => {
    const noKind = decodeError({ rawBody: '{"apiVersion":"v1","metadata":{"name":"p"}}', resourceType: pods });
    expect(noKind.message).toBe(
      `the object provided is unrecognized (must be of type Pod): Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"p"}}' ({"apiVersion":"v1","metadata": ...)`,
    );
    const noVersion = decodeError({ body: { kind: 'Pod', metadata: { name: 'p' } }, resourceType: pods });
    expect(noVersion.message).toBe(`Pod in version "" cannot be handled as a Pod: Object 'apiVersion' is missing in '{"kind":"Pod","metadata":{"name":"p"}}'`);
  });

  it('refuses a body that is not an object', () => {
    const err = decodeError({ rawBody: '[1,2]', resourceType: pods });
    expect(err.message).toBe(
      'the object provided is unrecognized (must be of type Pod): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b312c325d)',
    );
    expect(decodeError({ body: { apiVersion: 'v1', kind: 7 }, resourceType: pods }).message).toContain(
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string",
    );
  });

  it('refuses another kind or version than the addressed resource', () => {
    expect(decodeError({ body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } }, resourceType: pods }).message).toBe(
      'Service in version "v1" cannot be handled as a Pod: converting (v1.Service) to (core.Pod): unknown conversion',
    );
    expect(decodeError({ body: { apiVersion: 'apps/v2', kind: 'Deployment' }, resourceType: deployments }).message).toBe(
      'the API version in the data (apps/v2) does not match the expected API version (apps/v1)',
    );
    const removed = decodeError({ body: { apiVersion: 'extensions/v1beta1', kind: 'Deployment' }, resourceType: deployments });
    expect(removed.code).toBe(404);
    expect(removed.message).toBe('no matches for kind "Deployment" in version "extensions/v1beta1"');
  });

  it('unknownKindError is a NotFound Status with the RESTMapper text', () => {
    const err = unknownKindError('apps/v1', 'Deploymnt');
    expect(isStatusError(err, 'NotFound')).toBe(true);
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'no matches for kind "Deploymnt" in version "apps/v1"',
      reason: 'NotFound',
      details: { group: 'apps', kind: 'Deploymnt' },
      code: 404,
    });
  });
});

describe('malformed bodies', () => {
  it('reports JSON syntax errors as Go does', () => {
    const cases: [string, string][] = [
      ['{"apiVersion":"v1","kind":"Pod" "x"}', `invalid character '"' after object key:value pair`],
      ['{"apiVersion" "v1"}', `invalid character '"' after object key`],
      ['{"a":[1 2]}', `invalid character '2' after array element`],
      ['{"a":tru}', `invalid character '}' in literal true (expecting 'e')`],
      ['{"a":1', 'unexpected end of JSON input'],
      ['{"a":"\u0001"}', `invalid character '\\x01' in string literal`],
    ];
    for (const [body, text] of cases) {
      expect(decodeError({ rawBody: body, resourceType: pods, contentType: 'json' }).message, body).toMatch(
        `the object provided is unrecognized (must be of type Pod): couldn't get version/kind; json parse error: ${text} (`,
      );
    }
  });

  it('reports YAML errors with their line, and summarises the body in hex as the server does', () => {
    const err = decodeError({ rawBody: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n    bad: 1\n', resourceType: pods });
    expect(err.message).toMatch(/^the object provided is unrecognized \(must be of type Pod\): error converting YAML to JSON: yaml: line 4: /);
    expect(err.message).toMatch(/\(61706956657273696f6e3a2076310a6b696e643a20506f640a6d65746164 \.\.\.\)$/);
  });

  it('accepts flow-style YAML that is not JSON (unquoted keys, trailing commas)', () => {
    const { object } = decodeObject({ rawBody: '{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", }, }', resourceType: configmaps, fieldValidation: 'Strict' });
    expect(object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', creationTimestamp: null } });
  });
});

describe('the decoded object', () => {
  it('is a fresh plain copy without the unknown fields, nulls of pointer fields dropped', () => {
    const body = deployment({ replicas: null, paused: true, extra: 1, template: { metadata: { labels: { a: null } } } });
    const { object } = decodeObject({ body, resourceType: deployments, fieldValidation: 'Ignore' });
    // A by-value time the body leaves unset is the zero time, which encodes as null (zero-times.ts).
    expect(object).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', creationTimestamp: null },
      spec: { paused: true, template: { metadata: { labels: { a: '' }, creationTimestamp: null } } },
    });
    (object.spec as { paused: boolean }).paused = false;
    expect((body.spec as { paused: boolean }).paused).toBe(true);
    expect(object.metadata).not.toBe(body.metadata);
  });

  it('keeps __proto__ / constructor keys of ConfigMap data as plain data (B22)', () => {
    const raw = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"__proto__":"x","constructor":"y","prototype":"z"}}';
    for (const args of [{ rawBody: raw }, { body: JSON.parse(raw) as unknown }]) {
      const { object } = decodeObject({ ...args, resourceType: configmaps, fieldValidation: 'Strict' });
      const data = object.data as Record<string, string>;
      expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('x');
      expect(data.constructor).toBe('y');
      expect(data.prototype).toBe('z');
      expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    }
  });

  it('compiles each kind once and reuses it', () => {
    const name = definitionNameForKind({ group: '', version: 'v1', kind: 'Pod' })!;
    expect(codecForDefinition(name)).toBe(codecForDefinition(name));
  });
});

describe('custom resources', () => {
  const shirts: ResourceType = {
    group: 'stable.example.com',
    version: 'v1',
    kind: 'Shirt',
    resource: 'shirts',
    singular: 'shirt',
    namespaced: true,
    shortNames: [],
    categories: [],
    subresources: { status: false, scale: false },
    verbs: ['create'],
    custom: true,
  };
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          color: { type: 'string' },
          ports: { type: 'array', items: { type: 'object', properties: { containerPort: { type: 'integer' } } } },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
        },
      },
    },
  };
  const shirt = (spec: unknown, metadata: unknown = { name: 's' }) => ({ apiVersion: 'stable.example.com/v1', kind: 'Shirt', metadata, spec });

  it('prunes and reports fields the schema does not declare', () => {
    const body = shirt({ color: 'blue', size: 'M', ports: [{ containerPort: 80, protocol: 'TCP' }], labels: { a: 'b' } });
    const err = decodeError({ body, resourceType: shirts, customSchema: schema });
    expect(err.message).toBe(
      'Shirt in version "v1" cannot be handled as a Shirt: strict decoding error: unknown field "spec.size", unknown field "spec.ports[0].protocol"',
    );
    const { object, warnings } = decodeObject({ body, resourceType: shirts, customSchema: schema, fieldValidation: 'Warn' });
    expect(warnings).toEqual(['unknown field "spec.size"', 'unknown field "spec.ports[0].protocol"']);
    expect(object.spec).toEqual({ color: 'blue', ports: [{ containerPort: 80 }], labels: { a: 'b' } });
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields, and everything without a schema', () => {
    const body = shirt({ extra: { anything: { goes: [1, null] } } });
    expect(decodeObject({ body, resourceType: shirts, customSchema: schema, fieldValidation: 'Strict' }).object.spec).toEqual({ extra: { anything: { goes: [1, null] } } });
    const free = shirt({ whatever: 1, nested: { x: true } });
    // Only its metadata is an ObjectMeta (coerced: SetObjectMeta writes the zero creationTimestamp as null).
    expect(decodeObject({ body: free, resourceType: shirts, fieldValidation: 'Strict' }).object).toEqual({ ...free, metadata: { ...(free.metadata as object), creationTimestamp: null } });
  });

  it('coerces metadata as ObjectMeta, at the root and in embedded resources', () => {
    const body = shirt({ template: { apiVersion: 'v1', kind: 'Sub', metadata: { name: 'sub', unknownSubMeta: 1 }, spec: { a: 'x', b: 'y' } } }, { name: 's', unknownMeta: 'u', labels: 7 });
    const err = decodeError({ body, resourceType: shirts, customSchema: schema });
    expect(err.message).toBe(
      'Shirt in version "v1" cannot be handled as a Shirt: strict decoding error: unknown field "metadata.unknownMeta", unknown field "spec.template.metadata.unknownSubMeta", unknown field "spec.template.spec.b"',
    );
    const { object } = decodeObject({ body, resourceType: shirts, customSchema: schema, fieldValidation: 'Ignore' });
    expect(object.metadata).toEqual({ name: 's', creationTimestamp: null }); // malformed labels dropped, not an error
    expect(object.spec).toEqual({ template: { apiVersion: 'v1', kind: 'Sub', metadata: { name: 'sub', creationTimestamp: null }, spec: { a: 'x' } } });
  });

  it('reports duplicate fields before pruned ones, even where unknown fields are preserved', () => {
    const raw = '{"apiVersion":"stable.example.com/v1","kind":"Shirt","metadata":{"name":"s"},"spec":{"zz":1,"extra":{"a":1,"a":2},"color":"x","color":"y"}}';
    const err = decodeError({ rawBody: raw, resourceType: shirts, customSchema: schema });
    expect(err.message).toBe(
      'Shirt in version "v1" cannot be handled as a Shirt: strict decoding error: duplicate field "spec.extra.a", duplicate field "spec.color", unknown field "spec.zz"',
    );
  });

  it('refuses a custom resource of another kind', () => {
    const err = decodeError({ body: { apiVersion: 'stable.example.com/v1', kind: 'Hat', metadata: { name: 'h' } }, resourceType: shirts, customSchema: schema });
    expect(err.message).toBe('no matches for kind "Hat" in version "stable.example.com/v1"');
  });
});

// ------------------------------------------------------------------ the Kubernetes docs manifests

const manifestsDir = join(__dirname, '../../../../../shared/manifests');

describe.runIf(existsSync(manifestsDir))('the Kubernetes docs manifests decode in Strict mode', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir)
      .flatMap((e) => {
        const p = join(dir, e);
        return statSync(p).isDirectory() ? files(p) : /\.ya?ml$/.test(e) ? [p] : [];
      })
      .sort();

  /** Documents a v1.32 server does not take, with the text the decode stage gives. */
  const expected: Record<string, string> = {
    'application/job/cronjob.yaml#0': 'no matches for kind "CronJob" in version "batch/v1beta1"',
  };

  /** The registry's resource for a kind, at the manifest's version when the registry lists another one. */
  function resourceTypeFor(group: string, version: string, kind: string): ResourceType | undefined {
    const t = builtinResourceTypes.find((r) => r.group === group && r.kind === kind);
    if (!t) return undefined;
    if (t.version === version || !definitionNameForKind({ group, version, kind })) return t;
    return { ...t, version };
  }

  it('every built-in object decodes without findings, from the parsed object and from its source text', () => {
    const crdSchemas = new Map<string, { rt: ResourceType; schema: object }>();
    let decoded = 0;
    for (const file of files(manifestsDir)) {
      const name = relative(manifestsDir, file);
      parseManifests(readFileSync(file, 'utf8')).forEach((doc, i) => {
        const obj = doc.object as { apiVersion: string; kind: string; spec?: Record<string, unknown> };
        const { group, version } = parseApiVersion(obj.apiVersion);
        let resourceType = resourceTypeFor(group, version, obj.kind);
        let customSchema: object | undefined;
        if (!resourceType) {
          const crd = crdSchemas.get(`${group}/${obj.kind}`);
          if (!crd) throw new Error(`${name}#${i}: no resource for ${obj.apiVersion} ${obj.kind}`);
          resourceType = crd.rt;
          customSchema = crd.schema;
        }
        const key = `${name}#${i}`;
        for (const input of [{ body: doc.object }, { rawBody: doc.source }]) {
          if (expected[key]) {
            expect(decodeError({ ...input, resourceType, customSchema }).message, key).toBe(expected[key]);
            continue;
          }
          const result = decodeObject({ ...input, resourceType, customSchema, fieldValidation: 'Warn' });
          expect(result.warnings, key).toEqual([]);
          expect(result.object.kind, key).toBe(obj.kind);
          decodeObject({ ...input, resourceType, customSchema, fieldValidation: 'Strict' });
        }
        decoded++;
        if (obj.kind === 'CustomResourceDefinition') {
          const spec = obj.spec as { group: string; names: { kind: string; plural: string }; versions: { name: string; schema?: { openAPIV3Schema: object } }[] };
          const v = spec.versions[0];
          crdSchemas.set(`${spec.group}/${spec.names.kind}`, {
            rt: { ...shirtsLike, group: spec.group, version: v.name, kind: spec.names.kind, resource: spec.names.plural },
            schema: v.schema!.openAPIV3Schema,
          });
        }
      });
    }
    expect(decoded).toBeGreaterThan(60);
  });
});

const shirtsLike: ResourceType = {
  group: '',
  version: '',
  kind: '',
  resource: '',
  singular: '',
  namespaced: true,
  shortNames: [],
  categories: [],
  subresources: { status: false, scale: false },
  verbs: ['create'],
  custom: true,
};

describe('CustomResourceDefinition schemas', () => {
  const crds = rt('CustomResourceDefinition', 'apiextensions.k8s.io');
  const crd = (schema: unknown) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'shirts.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'shirts', kind: 'Shirt' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  });

  it('takes the structural-schema extensions and free-form defaults', () => {
    const schema = {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        spec: {
          type: 'object',
          default: { size: 'M', nested: [1, { a: null }] },
          properties: { size: { type: 'string', enum: ['S', 'M'] }, port: { 'x-kubernetes-int-or-string': true } },
          'x-kubernetes-validations': [{ rule: 'self.size != ""', message: 'size' }],
        },
        list: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object' } },
      },
    };
    const { object } = decodeObject({ body: crd(schema), resourceType: crds, fieldValidation: 'Strict' });
    expect((object.spec as { versions: { schema: { openAPIV3Schema: unknown } }[] }).versions[0].schema.openAPIV3Schema).toEqual(schema);
  });

  it('reports unknown schema keywords in typed places, but not inside items/additionalProperties (their own UnmarshalJSON)', () => {
    const err = decodeError({ body: crd({ type: 'object', typo: 1, properties: { a: { type: 'string', formatt: 'x' } } }), resourceType: crds });
    expect(err.message).toBe(
      'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].schema.openAPIV3Schema.typo", unknown field "spec.versions[0].schema.openAPIV3Schema.properties.a.formatt"',
    );
    const nested = decodeObject({ body: crd({ type: 'array', items: { type: 'string', bogus: true } }), resourceType: crds, fieldValidation: 'Warn' });
    expect(nested.warnings).toEqual([]);
    expect((nested.object.spec as { versions: { schema: { openAPIV3Schema: unknown } }[] }).versions[0].schema.openAPIV3Schema).toEqual({ type: 'array', items: { type: 'string' } });
  });
});

describe('bodies built in code', () => {
  it('treats undefined fields as absent and refuses values JSON cannot hold', () => {
    const { object } = decodeObject({ body: pod({ nodeName: undefined, containers: [{ name: 'a', image: undefined }] }), resourceType: pods, fieldValidation: 'Strict' });
    expect(object.spec).toEqual({ containers: [{ name: 'a' }] });
    expect(Object.keys(object.spec as object)).toEqual(['containers']);
    const date = decodeError({ body: { ...pod({}), metadata: { name: 'p', creationTimestamp: new Date(0) } }, resourceType: pods });
    expect(date.message).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go value of type string');
    const fn = decodeError({ body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: { f: () => 1 } }, resourceType: rt('ControllerRevision', 'apps') });
    expect(fn.message).toContain('json: unsupported type: function');
    const map = decodeError({ body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r' }, revision: 1, data: new Map() }, resourceType: rt('ControllerRevision', 'apps') });
    expect(map.message).toContain('json: unsupported type: Map');
  });
});

describe('managedFields documents handed back by the in-process client', () => {
  const withFields = (fieldsV1: unknown) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'c',
      managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1 }],
    },
    data: { a: '1' },
  });
  const decodedFields = (body: unknown): unknown =>
    (decodeObject({ body, resourceType: configmaps, fieldValidation: 'Strict' }).object.metadata.managedFields as { fieldsV1?: unknown }[])[0]
      .fieldsV1;

  it('keeps a frozen plain-JSON document as it is (it is its own copy)', () => {
    const doc = deepFreeze({ 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    expect(decodedFields(withFields(doc))).toBe(doc);
  });

  it('copies a document that is not frozen, or not frozen all the way down', () => {
    const doc = { 'f:data': { 'f:a': {} } };
    const out = decodedFields(withFields(doc));
    expect(out).not.toBe(doc);
    expect(out).toEqual(doc);
    const shallow = Object.freeze({ 'f:data': { 'f:a': {} } });
    const out2 = decodedFields(withFields(shallow));
    expect(out2).not.toBe(shallow);
    expect(out2).toEqual(shallow);
  });

  it('copies a frozen document whose copy would differ (undefined members dropped) or that plain JSON cannot hold', () => {
    const doc = deepFreeze({ 'f:data': { 'f:a': {}, 'f:b': undefined } });
    const out = decodedFields(withFields(doc));
    expect(out).not.toBe(doc);
    expect(out).toEqual({ 'f:data': { 'f:a': {} } });
    expect(Object.keys((out as { 'f:data': object })['f:data'])).toEqual(['f:a']);
    const unsafe = deepFreeze({ 'f:n': 2 ** 60 });
    expect(decodeError({ body: withFields(unsafe), resourceType: configmaps }).status.message).toContain('exceeds JavaScript safe integer range');
  });
});

describe('stored parts handed back by an update (keepStored)', () => {
  // Stored as a kind that keeps both parts would be (pods keep only spec).
  const stored = toStoredBy({ keptStoredParts: ['spec', 'status'] }, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'a', image: 'nginx', resources: { requests: { cpu: '100m' } } }] },
    status: { phase: 'Pending' },
  } as KubeObject);
  const decode = (body: unknown, keepStored?: string[], resourceType = pods) => decodeObject({ body, resourceType, fieldValidation: 'Strict', keepStored }).object;

  it('takes a stored pod spec as it is where the kind keeps it', () => {
    const out = decode({ ...stored, status: { phase: 'Running' } }, ['spec']);
    expect(out.spec).toBe(stored.spec);
    // Everything else is decoded afresh.
    expect(out.metadata).not.toBe(stored.metadata);
    expect(out.status).toEqual({ phase: 'Running' });
  });

  it('decodes it as usual where the kind keeps nothing, or a field it does not keep', () => {
    expect(decode({ ...stored }).spec).not.toBe(stored.spec);
    const out = decode({ ...stored }, ['spec']);
    expect(out.status).not.toBe(stored.status);
    expect(out.status).toEqual(stored.status);
  });

  it('decodes a frozen value that is not a stored part of this kind at this field', () => {
    // Frozen but never stored: an unknown field in it is still found.
    const frozen = Object.freeze({ containers: Object.freeze([Object.freeze({ name: 'a', image: 'nginx', imagePolicy: 'x' })]) });
    expect(decodeError({ body: { ...stored, spec: frozen }, resourceType: pods, keepStored: ['spec'] }).message).toContain('unknown field "spec.containers[0].imagePolicy"');
    // A stored pod's status is not a PodSpec.
    expect(decodeError({ body: { ...stored, spec: stored.status }, resourceType: pods, keepStored: ['spec'] }).message).toContain('unknown field "spec.phase"');
    // Nor is a stored part of another kind with the same field name.
    const rs = toStoredBy({ keptStoredParts: ['spec'] }, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { replicas: 1 } } as KubeObject);
    expect(decodeError({ body: { ...stored, spec: rs.spec }, resourceType: pods, keepStored: ['spec'] }).message).toContain('unknown field "spec.replicas"');
  });
});

describe('time fields held by value (zero-times.ts)', () => {
  const conditions = (c: Record<string, unknown>) => pod({ containers: [{ name: 'a', image: 'nginx' }] }, { status: { conditions: [c], startTime: null } });
  const decodedStatus = (body: unknown, appliedConfiguration?: boolean) =>
    decodeObject({ body, resourceType: pods, fieldValidation: 'Strict', appliedConfiguration }).object.status as { conditions: Record<string, unknown>[] };

  it('are null when unset or null, as a Go round trip encodes the zero time; pointer times are left out', () => {
    const status = decodedStatus(conditions({ type: 'Ready', status: 'True' }));
    expect(status.conditions[0]).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: null });
    expect(Object.hasOwn(status, 'startTime')).toBe(false);
    const sent = decodedStatus(conditions({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' }));
    expect(sent.conditions[0]).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' });
  });

  it('fill templates and Events too', () => {
    const d = decodeObject({ body: deployment({ template: { metadata: { labels: { a: 'b' } } } }), resourceType: deployments, fieldValidation: 'Strict' }).object;
    expect((d.spec as { template: { metadata: unknown } }).template.metadata).toEqual({ labels: { a: 'b' }, creationTimestamp: null });
    const ev = decodeObject({
      body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p' }, reason: 'Pulled', firstTimestamp: '2026-01-01T00:00:00Z', lastTimestamp: '2026-01-01T00:00:00Z' },
      resourceType: rt('Event'),
      fieldValidation: 'Strict',
    }).object as unknown as Record<string, unknown>;
    expect(ev.eventTime).toBeNull();
    expect(ev.firstTimestamp).toBe('2026-01-01T00:00:00Z');
  });

  it('are not filled into a server-side apply configuration (a partial object)', () => {
    const status = decodedStatus(conditions({ type: 'Ready', status: 'True' }), true);
    expect(status.conditions[0]).toEqual({ type: 'Ready', status: 'True' });
  });
});
