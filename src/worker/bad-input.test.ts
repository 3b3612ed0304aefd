// Issue 9, item 1: every kind of bad input gets the real, clear error through the path a person uses — the
// editor's Apply (the page's protocol client → worker api/apply → API server), and `kubectl apply -f editor` in
// the console — and nothing is applied: the store gets no new revision. One row per kind of bad input; the texts
// are Kubernetes v1.32's (apimachinery's errors.go, validation.go, the strict decoder, the admission plugins).
import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../control-plane/cluster';
import { ResourceQuotaControllerName } from '../control-plane/controllers/resourcequota/resource-quota-controller';
import { ServiceAccountControllerName } from '../control-plane/controllers/serviceaccount/serviceaccounts-controller';
import type { ApiRequest } from '../shared/api/request';
import type { Status } from '../shared/api/status';
import type { KubeObject } from '../shared/api/types';
import { createProtocolClient, type KubectlEvent, type ProtocolClient } from '../shared/protocol/client';
import type { ApplyOutcome, KubeconfigState } from '../shared/protocol/methods';
import { createPortPair } from '../shared/protocol/port';
import { serveProtocol, type ProtocolServer } from './serve';

// ------------------------------------------------------------------ manifests

const configMap = (name = 'demo', extra = '') => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}${extra}
data:
  color: blue
`;

const deployment = (o: { replicas?: string; selector?: string; template?: string; container?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  ${o.replicas ?? 'replicas: 2'}
${o.selector ?? '  selector:\n    matchLabels:\n      app: web\n'}  template:
    metadata:
      labels:
        ${o.template ?? 'app: web'}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27${o.container ?? ''}
`;

const pod = (extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: shell
spec:
  containers:
  - name: shell
    image: busybox:1.36${extra}
`;

const namespace = (name: string) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;

const statefulSet = (storage: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: postgres:16
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: ${storage}
`;

const rfc1123Subdomain =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const quantityRegex = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// ------------------------------------------------------------------ harness

interface Harness {
  cluster: Cluster;
  client: ProtocolClient;
  /** The editor's Apply: api/apply over the page's protocol client. */
  apply(manifest: string, namespace?: string): Promise<ApplyOutcome[]>;
  /** Applies setup manifests and requires them to succeed. */
  given(...manifests: string[]): Promise<void>;
  /** `kubectl …` in the console with the editor's buffer (for `-f editor`). */
  kubectl(line: string, editorBuffer?: string): Promise<{ exitCode: number; stdout: string; stderr: string }>;
}

const kubeconfig: KubeconfigState = { currentContext: 'kubeplay', contexts: [{ name: 'kubeplay', cluster: 'kubeplay', user: 'admin' }] };
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});

async function harness(): Promise<Harness> {
  // The quota controller computes quota status (admission needs it); the serviceaccount controller makes the
  // "default" ServiceAccount pods need. Nothing else runs, so the store only moves when a request writes.
  const cluster = await createCluster({ seed: 9, controllers: [ResourceQuotaControllerName, ServiceAccountControllerName], scheduler: false, nodes: 0 });
  cluster.runUntilIdle();
  const [uiPort, workerPort] = createPortPair();
  const server: ProtocolServer<Cluster> = serveProtocol(cluster, workerPort, { afterRequest: (c) => c.clock.runDeferred() });
  const client = createProtocolClient(uiPort);
  await client.ready;
  const events: KubectlEvent[] = [];
  client.onKubectl((e) => events.push(e));
  open.push(async () => {
    server.close();
    client.close();
    await cluster.close();
  });
  let runs = 0;
  const h: Harness = {
    cluster,
    client,
    async apply(manifest, ns) {
      const params = ns === undefined ? { manifest } : { manifest, namespace: ns };
      return (await client.call('api/apply', params)).outcomes;
    },
    async given(...manifests) {
      for (const m of manifests) {
        const outcomes = await h.apply(m);
        expect(outcomes.map((o) => (o.ok ? 'ok' : o.status.message))).toEqual(outcomes.map(() => 'ok'));
      }
      cluster.runUntilIdle();
    },
    async kubectl(line, editorBuffer) {
      const id = `run-${++runs}`;
      const { exitCode } = await client.call('kubectl/run', { id, line, kubeconfig, editorBuffer });
      const text = (stream: 'stdout' | 'stderr') =>
        events
          .filter((e) => e.type === 'kubectl/output' && e.id === id && e.stream === stream)
          .map((e) => (e.type === 'kubectl/output' ? e.text : ''))
          .join('\n');
      return { exitCode, stdout: text('stdout'), stderr: text('stderr') };
    },
  };
  return h;
}

/** The single refusal of a one-document apply. */
function refusal(outcomes: ApplyOutcome[]): Status & { line?: number; column?: number } {
  expect(outcomes).toHaveLength(1);
  const [o] = outcomes;
  if (o.ok) throw new Error(`expected a refusal, got ${o.action} ${o.object.kind}/${o.object.metadata.name}`);
  return { ...o.status, line: o.line, column: o.column };
}

// ------------------------------------------------------------------ the rows

interface Row {
  name: string;
  /** Objects (and state) the bad input meets: applied and settled before the revision is taken. */
  setup?: (h: Harness) => Promise<void>;
  manifest: string;
  /** kubectl's -n. */
  namespace?: string;
  code: number;
  reason: string;
  /** The whole message, or (RegExp) what it must match when part of it is a yaml snippet or a diff. */
  message: string | RegExp;
  /** Where the editor marks it, when the error names a position. */
  at?: { line: number; column?: number };
}

const rows: Row[] = [
  {
    name: 'YAML syntax error, with line and column',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  labels\n    app: web\n',
    code: 400,
    reason: 'BadRequest',
    message: /^error parsing manifest: Implicit keys need to be on a single line at line 5, column 3:\n/,
    at: { line: 5, column: 3 },
  },
  {
    name: 'an unclosed quote',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "demo\n',
    code: 400,
    reason: 'BadRequest',
    message: /^error parsing manifest: Missing closing "quote at line 5, column 1:/,
    at: { line: 5, column: 1 },
  },
  {
    name: 'tab indentation',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: demo\n',
    code: 400,
    reason: 'BadRequest',
    message: /^error parsing manifest: Tabs are not allowed as indentation at line 4, column 1:/,
    at: { line: 4, column: 1 },
  },
  {
    name: 'duplicate keys',
    manifest: deployment({ replicas: 'replicas: 2\n  replicas: 3' }),
    code: 400,
    reason: 'BadRequest',
    message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "spec.replicas"',
  },
  {
    name: 'duplicate keys in an object that exists (the patch path)',
    setup: (h) => h.given(configMap()),
    manifest: configMap('demo', '\n  labels:\n    tier: a\n    tier: b'),
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.tier"',
  },
  {
    name: 'duplicate keys in an item of a List',
    manifest: 'apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: demo\n    name: other\n',
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.name"',
  },
  {
    name: 'unknown field (strict decoding)',
    manifest: deployment({ replicas: 'replicaz: 2' }),
    code: 400,
    reason: 'BadRequest',
    message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicaz"',
  },
  {
    name: 'unknown and duplicate fields together, in document order (the conformance text)',
    manifest: deployment({ replicas: 'unknownField: foo\n  replicas: 2\n  replicas: 3' }),
    code: 400,
    reason: 'BadRequest',
    message: 'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"',
  },
  {
    name: 'wrong type',
    manifest: deployment({ replicas: 'replicas: "three"' }),
    code: 400,
    reason: 'BadRequest',
    message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  },
  {
    name: 'YAML 1.1 boolean where a string belongs (value: yes)',
    setup: async (h) => void h.cluster.runUntilIdle(),
    manifest: pod('\n    env:\n    - name: DEBUG\n      value: yes'),
    code: 400,
    reason: 'BadRequest',
    message: 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go struct field EnvVar.spec.containers.env.value of type string',
  },
  {
    name: 'a name read as a YAML 1.1 boolean (name: yes)',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yes\n',
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string',
  },
  {
    name: 'metadata that is not a mapping',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata: demo\n',
    code: 400,
    reason: 'BadRequest',
    message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta',
  },
  {
    name: 'a document that is not a mapping',
    manifest: '- apiVersion: v1\n  kind: ConfigMap\n',
    code: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal array into Go value of type map[string]interface {}',
  },
  {
    name: 'a kind that is not a string',
    manifest: 'apiVersion: v1\nkind: 5\nmetadata:\n  name: demo\n',
    code: 400,
    reason: 'BadRequest',
    message: 'json: cannot unmarshal number into Go struct field .kind of type string',
  },
  {
    name: 'generateName instead of a name (apply needs a name)',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  generateName: demo-\n',
    code: 400,
    reason: 'BadRequest',
    message: 'from demo-: cannot use generate name with apply',
  },
  {
    name: 'missing kind',
    manifest: 'apiVersion: v1\nmetadata:\n  name: demo\n',
    code: 400,
    reason: 'BadRequest',
    message: `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"demo"}}'`,
  },
  {
    name: 'missing apiVersion',
    manifest: 'kind: ConfigMap\nmetadata:\n  name: demo\n',
    code: 400,
    reason: 'BadRequest',
    message: `Object 'apiVersion' is missing in '{"kind":"ConfigMap","metadata":{"name":"demo"}}'`,
  },
  {
    name: 'unknown kind',
    manifest: deployment().replace('kind: Deployment', 'kind: Deploymnt'),
    code: 404,
    reason: 'NotFound',
    message: 'no matches for kind "Deploymnt" in version "apps/v1"',
  },
  {
    name: 'a removed API version',
    manifest: deployment().replace('apps/v1', 'extensions/v1beta1'),
    code: 404,
    reason: 'NotFound',
    message: 'no matches for kind "Deployment" in version "extensions/v1beta1"',
  },
  {
    name: 'invalid name (RFC 1123 subdomain)',
    manifest: configMap('My_Config'),
    code: 422,
    reason: 'Invalid',
    message: `ConfigMap "My_Config" is invalid: metadata.name: Invalid value: "My_Config": ${rfc1123Subdomain}`,
  },
  {
    name: 'name too long for a namespace (RFC 1123 label, 63 characters)',
    manifest: namespace('n'.repeat(64)),
    code: 422,
    reason: 'Invalid',
    // The namespace's kubernetes.io/metadata.name label carries the name, so its value is too long as well.
    message: `Namespace "${'n'.repeat(64)}" is invalid: [metadata.name: Invalid value: "${'n'.repeat(64)}": must be no more than 63 characters, metadata.labels: Invalid value: "${'n'.repeat(64)}": must be no more than 63 characters]`,
  },
  {
    name: 'a dot in a namespace name (RFC 1123 label)',
    manifest: namespace('team.a'),
    code: 422,
    reason: 'Invalid',
    message: 'Namespace "team.a" is invalid: metadata.name: Invalid value: "team.a": must not contain dots',
  },
  {
    name: 'Service name (DNS-1035 label)',
    manifest: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: 1web\nspec:\n  selector:\n    app: web\n  ports:\n  - port: 80\n',
    code: 422,
    reason: 'Invalid',
    message:
      "Service \"1web\" is invalid: metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  },
  {
    name: 'invalid label value',
    manifest: configMap('demo', '\n  labels:\n    app: "bad value!"'),
    code: 422,
    reason: 'Invalid',
    message:
      "ConfigMap \"demo\" is invalid: metadata.labels: Invalid value: \"bad value!\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  {
    name: 'invalid label key (__proto__ is data, and not a qualified name)',
    manifest: configMap('demo', '\n  labels:\n    __proto__: x'),
    code: 422,
    reason: 'Invalid',
    message:
      "ConfigMap \"demo\" is invalid: metadata.labels: Invalid value: \"__proto__\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  },
  {
    name: 'bad selector: values with Exists',
    manifest: deployment({ selector: '  selector:\n    matchLabels:\n      app: web\n    matchExpressions:\n    - key: tier\n      operator: Exists\n      values: [a]\n' }),
    code: 422,
    reason: 'Invalid',
    message:
      'Deployment.apps "web" is invalid: [spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is \'Exists\' or \'DoesNotExist\', spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"Exists","values":["a"]}]}: invalid label selector]',
  },
  {
    name: 'bad selector: unknown operator',
    manifest: deployment({ selector: '  selector:\n    matchLabels:\n      app: web\n    matchExpressions:\n    - key: tier\n      operator: Maybe\n' }),
    code: 422,
    reason: 'Invalid',
    message:
      'Deployment.apps "web" is invalid: [spec.selector.matchExpressions[0].operator: Invalid value: "Maybe": not a valid selector operator, spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"Maybe"}]}: invalid label selector]',
  },
  {
    name: 'selector not matching the template labels',
    manifest: deployment({ template: 'app: api' }),
    code: 422,
    reason: 'Invalid',
    message: 'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: `selector` does not match template `labels`',
  },
  {
    name: 'missing selector',
    manifest: deployment({ selector: '' }),
    code: 422,
    reason: 'Invalid',
    message: 'Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`]',
  },
  {
    name: 'Deployment selector changed (immutable)',
    setup: (h) => h.given(deployment()),
    manifest: deployment({ selector: '  selector:\n    matchLabels:\n      app: web2\n', template: 'app: web2' }),
    code: 422,
    reason: 'Invalid',
    message: 'Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
  },
  {
    name: 'Pod spec update beyond the mutable fields',
    setup: (h) => h.given(pod()),
    manifest: pod('\n    ports:\n    - containerPort: 8080'),
    code: 422,
    reason: 'Invalid',
    message: /^Pod "shell" is invalid: spec: Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,/,
  },
  {
    name: 'StatefulSet volumeClaimTemplates changed',
    setup: (h) => h.given(statefulSet('1Gi')),
    manifest: statefulSet('2Gi'),
    code: 422,
    reason: 'Invalid',
    message:
      "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  },
  {
    name: 'negative replicas',
    manifest: deployment({ replicas: 'replicas: -1' }),
    code: 422,
    reason: 'Invalid',
    message: 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  },
  {
    name: 'malformed quantity (500mb)',
    manifest: deployment({ container: '\n        resources:\n          limits:\n            memory: 500mb' }),
    code: 400,
    reason: 'BadRequest',
    message: `Deployment in version "v1" cannot be handled as a Deployment: ${quantityRegex}`,
  },
  {
    name: 'malformed quantity (1.5.5Gi)',
    manifest: deployment({ container: '\n        resources:\n          requests:\n            memory: 1.5.5Gi' }),
    code: 400,
    reason: 'BadRequest',
    message: `Deployment in version "v1" cannot be handled as a Deployment: ${quantityRegex}`,
  },
  {
    name: 'namespace of the object differs from -n',
    manifest: configMap('demo', '\n  namespace: team-a'),
    namespace: 'team-b',
    code: 400,
    reason: 'BadRequest',
    message: `the namespace from the provided object "team-a" does not match the namespace "team-b". You must pass '--namespace=team-a' to perform this operation.`,
  },
  {
    name: 'missing namespace',
    manifest: configMap('demo', '\n  namespace: nope'),
    code: 404,
    reason: 'NotFound',
    message: 'namespaces "nope" not found',
  },
  {
    name: 'terminating namespace',
    setup: async (h) => {
      // The ConfigMap keeps the namespace Terminating: no namespace controller runs to empty it.
      await h.given(namespace('leaving'), configMap('stays', '\n  namespace: leaving'));
      await h.client.call('api/request', { verb: 'delete', group: '', version: 'v1', resource: 'namespaces', name: 'leaving' });
    },
    manifest: configMap('demo', '\n  namespace: leaving'),
    code: 403,
    reason: 'Forbidden',
    message: 'configmaps "demo" is forbidden: unable to create new content in namespace leaving because it is being terminated',
  },
  {
    name: 'two controller ownerReferences',
    manifest: configMap(
      'demo',
      '\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: ReplicaSet\n    name: a\n    uid: 11111111-1111-1111-1111-111111111111\n    controller: true\n  - apiVersion: apps/v1\n    kind: ReplicaSet\n    name: b\n    uid: 22222222-2222-2222-2222-222222222222\n    controller: true',
    ),
    code: 422,
    reason: 'Invalid',
    message:
      'ConfigMap "demo" is invalid: metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"a","uid":"11111111-1111-1111-1111-111111111111","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"b","uid":"22222222-2222-2222-2222-222222222222","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b',
  },
  {
    name: 'new finalizer on a terminating object',
    setup: async (h) => {
      await h.given(configMap('demo', '\n  finalizers:\n  - example.com/hold'));
      await h.client.call('api/request', { verb: 'delete', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'demo' });
    },
    manifest: configMap('demo', '\n  finalizers:\n  - example.com/hold\n  - example.com/more'),
    code: 422,
    reason: 'Invalid',
    message: 'ConfigMap "demo" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}',
  },
  {
    name: 'both garbage-collection finalizers',
    manifest: configMap('demo', '\n  finalizers:\n  - orphan\n  - foregroundDeletion'),
    code: 422,
    reason: 'Invalid',
    message: 'ConfigMap "demo" is invalid: metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set',
  },
  {
    name: 'oversized annotations (256 KiB in total)',
    manifest: configMap('demo', `\n  annotations:\n    a: "${'x'.repeat(200 * 1024)}"\n    b: "${'y'.repeat(60 * 1024)}"`),
    code: 422,
    reason: 'Invalid',
    message: 'ConfigMap "demo" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes',
  },
  {
    name: 'ResourceQuota exceeded',
    setup: (h) => h.given('apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: counts\nspec:\n  hard:\n    configmaps: "0"\n'),
    manifest: configMap(),
    code: 403,
    reason: 'Forbidden',
    message: 'configmaps "demo" is forbidden: exceeded quota: counts, requested: configmaps=1, used: configmaps=0, limited: configmaps=0',
  },
  {
    name: 'ResourceQuota on limits.cpu and a container without limits',
    setup: (h) => h.given('apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: compute\nspec:\n  hard:\n    limits.cpu: "2"\n'),
    manifest: pod(),
    code: 403,
    reason: 'Forbidden',
    message: 'pods "shell" is forbidden: failed quota: compute: must specify limits.cpu for: shell',
  },
  {
    name: 'LimitRange maximum',
    setup: (h) => h.given('apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: caps\nspec:\n  limits:\n  - type: Container\n    max:\n      cpu: "1"\n'),
    manifest: pod('\n    resources:\n      limits:\n        cpu: "2"'),
    code: 403,
    reason: 'Forbidden',
    message: 'pods "shell" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
  },
  {
    name: 'RBAC: a user with no access (kubectl apply reads first)',
    setup: async (h) => {
      h.cluster.apiserver.currentUser = { username: 'alice', groups: ['system:authenticated'] };
    },
    manifest: configMap(),
    code: 403,
    reason: 'Forbidden',
    message: 'configmaps "demo" is forbidden: User "alice" cannot get resource "configmaps" in API group "" in the namespace "default"',
  },
  {
    name: 'RBAC: a user who may read but not create',
    setup: async (h) => {
      await h.given('apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: bob-view\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: view\nsubjects:\n- apiGroup: rbac.authorization.k8s.io\n  kind: User\n  name: bob\n');
      h.cluster.apiserver.currentUser = { username: 'bob', groups: ['system:authenticated'] };
    },
    manifest: configMap(),
    code: 403,
    reason: 'Forbidden',
    message: 'configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"',
  },
  {
    name: 'invalid base64 in Secret data',
    manifest: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\ndata:\n  password: "hunter2!"\n',
    code: 400,
    reason: 'BadRequest',
    message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7',
  },
];

describe('bad input through the editor\'s Apply (api/apply): the real error, nothing applied', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const h = await harness();
      await row.setup?.(h);
      const revision = h.cluster.store.revision;
      const status = refusal(await h.apply(row.manifest, row.namespace));
      expect({ code: status.code, reason: status.reason }).toEqual({ code: row.code, reason: row.reason });
      if (typeof row.message === 'string') expect(status.message).toBe(row.message);
      else expect(status.message).toMatch(row.message);
      if (row.at) expect({ line: status.line, column: status.column }).toEqual({ line: row.at.line, column: row.at.column });
      h.cluster.runUntilIdle();
      expect(h.cluster.store.revision).toBe(revision);
    });
  }
});

describe('bad input that is not a manifest error', () => {
  it('empty documents and comments are skipped; a paste of nothing else applies nothing', async () => {
    const h = await harness();
    const revision = h.cluster.store.revision;
    expect(await h.apply('---\n# just a comment\n---\n\n---\n')).toEqual([]);
    expect(await h.apply('')).toEqual([]);
    expect(h.cluster.store.revision).toBe(revision);
    const outcomes = await h.apply(`---\n# first\n---\n${configMap()}---\n`);
    expect(outcomes.map((o) => o.ok && `${o.object.kind}/${o.object.metadata.name} ${o.action}`)).toEqual(['ConfigMap/demo created']);
  });

  it('kind: List is expanded into its items; an invalid item is refused alone, as kubectl does', async () => {
    const h = await harness();
    const list = (second: string) =>
      `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: one\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ${second}\n`;
    const created = await h.apply(list('two'));
    expect(created.map((o) => o.ok && `${o.object.kind}/${o.object.metadata.name} ${o.action}`)).toEqual(['ConfigMap/one created', 'ConfigMap/two created']);
    const revision = h.cluster.store.revision;
    const outcomes = await h.apply(list('Two'));
    expect(outcomes[0]).toMatchObject({ ok: true, action: 'unchanged' });
    expect(outcomes[1]).toMatchObject({ ok: false, document: 2, line: 8, status: { code: 422, message: `ConfigMap "Two" is invalid: metadata.name: Invalid value: "Two": ${rfc1123Subdomain}` } });
    expect(h.cluster.store.revision).toBe(revision);
  });

  it('YAML 1.1 as kubectl reads it: 0644 is octal 420', async () => {
    const h = await harness();
    const manifest = deployment({ container: '\n      volumes:\n      - name: config\n        configMap:\n          name: web\n          defaultMode: 0644' });
    const [outcome] = await h.apply(manifest);
    expect(outcome.ok).toBe(true);
    const live = h.cluster.client.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).get('web', { namespace: 'default' }) as KubeObject & {
      spec: { template: { spec: { volumes: { configMap: { defaultMode: number } }[] } } };
    };
    expect(live.spec.template.spec.volumes[0].configMap.defaultMode).toBe(420);
  });

  it('resourceVersion on a create request is refused by storage (the API path; kubectl clears it before creating)', async () => {
    const h = await harness();
    const revision = h.cluster.store.revision;
    const req: ApiRequest = {
      verb: 'create',
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', resourceVersion: '5' } },
    };
    await expect(h.client.call('api/request', req)).rejects.toMatchObject({ status: { code: 500, reason: '', message: 'resourceVersion should not be set on objects to be created' } });
    expect(h.cluster.store.revision).toBe(revision);
  });

  it('a body naming another namespace than the request is refused', async () => {
    const h = await harness();
    await h.given(namespace('team-a'));
    const revision = h.cluster.store.revision;
    const req: ApiRequest = {
      verb: 'create',
      group: '',
      version: 'v1',
      resource: 'configmaps',
      namespace: 'default',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo', namespace: 'team-a' } },
    };
    await expect(h.client.call('api/request', req)).rejects.toMatchObject({
      status: { code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request' },
    });
    expect(h.cluster.store.revision).toBe(revision);
  });

  it('an invalid propagationPolicy is refused and the object stays', async () => {
    const h = await harness();
    await h.given(configMap());
    const revision = h.cluster.store.revision;
    const req: ApiRequest = { verb: 'delete', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'demo', options: { propagationPolicy: 'Sideways' as never } };
    await expect(h.client.call('api/request', req)).rejects.toMatchObject({
      status: { code: 422, reason: 'Invalid', message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"' },
    });
    expect(h.cluster.store.revision).toBe(revision);
    expect(h.cluster.client.configMaps.get('demo', { namespace: 'default' }).metadata.deletionTimestamp).toBeUndefined();
  });
});

describe('the same bad input through `kubectl apply -f editor` in the console', () => {
  const consoleRows: { name: string; setup?: (h: Harness) => Promise<void>; manifest: string; stderr: string | RegExp }[] = [
    {
      name: 'YAML syntax error',
      manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\n  labels\n    app: web\n',
      stderr: /^error: error parsing editor: error converting YAML to JSON: yaml: line 5: Implicit keys need to be on a single line/,
    },
    {
      name: 'unknown field',
      manifest: deployment({ replicas: 'replicaz: 2' }),
      stderr: /Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec\.replicaz"/,
    },
    {
      name: 'unknown kind',
      manifest: deployment().replace('kind: Deployment', 'kind: Deploymnt'),
      stderr: 'error: resource mapping not found for name: "web" namespace: "" from "editor": no matches for kind "Deploymnt" in version "apps/v1"\nensure CRDs are installed first',
    },
    {
      name: 'invalid name',
      manifest: configMap('My_Config'),
      stderr: /The ConfigMap "My_Config" is invalid: metadata\.name: Invalid value: "My_Config": a lowercase RFC 1123 subdomain/,
    },
    {
      name: 'Deployment selector changed',
      setup: (h) => h.given(deployment()),
      manifest: deployment({ selector: '  selector:\n    matchLabels:\n      app: web2\n', template: 'app: web2' }),
      stderr: /spec\.selector: Invalid value: .*field is immutable/,
    },
    {
      name: 'ResourceQuota exceeded',
      setup: (h) => h.given('apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: counts\nspec:\n  hard:\n    configmaps: "0"\n'),
      manifest: configMap(),
      stderr: /configmaps "demo" is forbidden: exceeded quota: counts, requested: configmaps=1, used: configmaps=0, limited: configmaps=0/,
    },
    { name: 'nothing but comments', manifest: '---\n# nothing here\n---\n', stderr: 'error: no objects passed to apply' },
  ];
  for (const row of consoleRows) {
    it(row.name, async () => {
      const h = await harness();
      await row.setup?.(h);
      const revision = h.cluster.store.revision;
      const out = await h.kubectl('kubectl apply -f editor', row.manifest);
      expect(out.exitCode).not.toBe(0);
      if (typeof row.stderr === 'string') expect(out.stderr).toBe(row.stderr);
      else expect(out.stderr).toMatch(row.stderr);
      h.cluster.runUntilIdle();
      expect(h.cluster.store.revision).toBe(revision);
    });
  }
});
