// Generates JSON Schema definitions for the Kubernetes API from kubernetes-types' .d.ts files, named as in the
// API server's OpenAPI document (io.k8s.api.apps.v1.DeploymentSpec, …). Output (gitignored):
//   src/shared/api/schemas/generated/definitions.json  {$schema, definitions}
//   src/shared/api/schemas/generated/kinds.json        [{group, version, kind, definition}]
//   src/shared/api/schemas/generated/stamp.json        what the output was made from
// Skips all work when the stamp matches (same kubernetes-types version, same script). Mtimes alone would not do:
// npm unpacks packages with a fixed old mtime.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const typesDir = join(root, 'node_modules', 'kubernetes-types');
const outDir = join(root, 'src', 'shared', 'api', 'schemas', 'generated');
const definitionsFile = join(outDir, 'definitions.json');
const kindsFile = join(outDir, 'kinds.json');
const stampFile = join(outDir, 'stamp.json');
const force = process.argv.includes('--force');

function listDts(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listDts(p));
    else if (entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

if (!existsSync(typesDir)) {
  console.error('gen-schemas: node_modules/kubernetes-types is missing (run npm install)');
  process.exit(1);
}

const typesVersion = JSON.parse(readFileSync(join(typesDir, 'package.json'), 'utf8')).version;
const stamp = {
  kubernetesTypes: typesVersion,
  script: createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 16),
};

function upToDate() {
  if (force || !existsSync(definitionsFile) || !existsSync(kindsFile) || !existsSync(stampFile)) return false;
  try {
    const old = JSON.parse(readFileSync(stampFile, 'utf8'));
    return old.kubernetesTypes === stamp.kubernetesTypes && old.script === stamp.script;
  } catch {
    return false;
  }
}

if (upToDate()) process.exit(0);

const inputs = listDts(typesDir);
const { default: ts } = await import('typescript');

// ------------------------------------------------------------------ naming

/** "core/v1" → "io.k8s.api.core.v1"; the few apimachinery packages keep their OpenAPI prefixes. */
function prefixForModule(mod) {
  switch (mod) {
    case 'meta/v1':
      return 'io.k8s.apimachinery.pkg.apis.meta.v1';
    case 'api/resource':
      return 'io.k8s.apimachinery.pkg.api.resource';
    case 'runtime':
      return 'io.k8s.apimachinery.pkg.runtime';
    case 'version':
      return 'io.k8s.apimachinery.pkg.version';
    case 'apiextensions/v1':
      return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
    default:
      return `io.k8s.api.${mod.replace('/', '.')}`;
  }
}

const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

// ------------------------------------------------------------------ integer formats

// kubernetes-types says `number` everywhere; Go says int32 unless listed here.
const int64Fields = new Set([
  'activeDeadlineSeconds',
  'deletionGracePeriodSeconds',
  'gracePeriodSeconds',
  'terminationGracePeriodSeconds',
  'tolerationSeconds',
  'startingDeadlineSeconds',
  'fsGroup',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
  'generation',
  'observedGeneration',
  'revision',
  'remainingItemCount',
  'sizeBytes',
  'maxItems',
  'maxLength',
  'maxProperties',
  'minItems',
  'minLength',
  'minProperties',
  'int',
  'ints',
]);
const int64Qualified = new Set([
  'ServiceAccountTokenProjection.expirationSeconds',
  'TokenRequestSpec.expirationSeconds',
  'TokenRequest.expirationSeconds',
  'SleepAction.seconds',
  'NodeSwapStatus.capacity',
]);
const float64Qualified = new Set(['JSONSchemaProps.maximum', 'JSONSchemaProps.minimum', 'JSONSchemaProps.multipleOf']);

// []byte fields: base64 on the wire (Go's encoding/json decodes them and rejects bad input).
const byteFields = new Set([
  'io.k8s.api.core.v1.Secret.data',
  'io.k8s.api.core.v1.ConfigMap.binaryData',
  'io.k8s.api.certificates.v1.CertificateSigningRequestSpec.request',
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus.certificate',
  'io.k8s.api.admissionregistration.v1.WebhookClientConfig.caBundle',
  'io.k8s.api.admissionregistration.v1beta1.WebhookClientConfig.caBundle',
  'io.k8s.api.admissionregistration.v1alpha1.WebhookClientConfig.caBundle',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.WebhookClientConfig.caBundle',
]);

// Named Go types of common string-ish fields, so type errors read like encoding/json's ("of type v1.Protocol").
const goTypeOverrides = {
  'io.k8s.api.core.v1.Container.imagePullPolicy': 'v1.PullPolicy',
  'io.k8s.api.core.v1.EphemeralContainer.imagePullPolicy': 'v1.PullPolicy',
  'io.k8s.api.core.v1.Container.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'io.k8s.api.core.v1.Container.restartPolicy': 'v1.ContainerRestartPolicy',
  'io.k8s.api.core.v1.ContainerPort.protocol': 'v1.Protocol',
  'io.k8s.api.core.v1.ServicePort.protocol': 'v1.Protocol',
  'io.k8s.api.core.v1.EndpointPort.protocol': 'v1.Protocol',
  'io.k8s.api.core.v1.PodSpec.restartPolicy': 'v1.RestartPolicy',
  'io.k8s.api.core.v1.PodSpec.dnsPolicy': 'v1.DNSPolicy',
  'io.k8s.api.core.v1.PodSpec.preemptionPolicy': 'v1.PreemptionPolicy',
  'io.k8s.api.core.v1.ServiceSpec.type': 'v1.ServiceType',
  'io.k8s.api.core.v1.ServiceSpec.sessionAffinity': 'v1.ServiceAffinity',
  'io.k8s.api.core.v1.ServiceSpec.externalTrafficPolicy': 'v1.ServiceExternalTrafficPolicy',
  'io.k8s.api.core.v1.ServiceSpec.internalTrafficPolicy': 'v1.ServiceInternalTrafficPolicy',
  'io.k8s.api.core.v1.Toleration.operator': 'v1.TolerationOperator',
  'io.k8s.api.core.v1.Toleration.effect': 'v1.TaintEffect',
  'io.k8s.api.core.v1.Taint.effect': 'v1.TaintEffect',
  'io.k8s.api.core.v1.Secret.type': 'v1.SecretType',
  'io.k8s.api.core.v1.PodStatus.phase': 'v1.PodPhase',
  'io.k8s.api.core.v1.HTTPGetAction.scheme': 'v1.URIScheme',
  'io.k8s.api.core.v1.ResourceRequirements.limits': 'v1.ResourceList',
  'io.k8s.api.core.v1.ResourceRequirements.requests': 'v1.ResourceList',
  'io.k8s.api.core.v1.ResourceQuotaSpec.hard': 'v1.ResourceList',
  'io.k8s.api.core.v1.NodeStatus.capacity': 'v1.ResourceList',
  'io.k8s.api.core.v1.NodeStatus.allocatable': 'v1.ResourceList',
  'io.k8s.api.apps.v1.DeploymentStrategy.type': 'v1.DeploymentStrategyType',
  'io.k8s.api.apps.v1.StatefulSetSpec.podManagementPolicy': 'v1.PodManagementPolicyType',
  'io.k8s.api.batch.v1.CronJobSpec.concurrencyPolicy': 'v1.ConcurrencyPolicy',
  'io.k8s.api.batch.v1.JobSpec.completionMode': 'v1.CompletionMode',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.uid': 'types.UID',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.uid': 'types.UID',
};

// ------------------------------------------------------------------ patches

// Fields Kubernetes v1.31/v1.32 added that kubernetes-types 1.30 lacks and that manifests may carry.
const patchDefinitions = {
  'io.k8s.api.core.v1.ImageVolumeSource': {
    description: 'ImageVolumeSource represents an image volume resource (an OCI object) mounted read-only into the pod.',
    type: 'object',
    properties: {
      reference: { description: 'Required: Image or artifact reference to be used.', type: 'string' },
      pullPolicy: { description: 'Policy for pulling OCI objects: Always, Never or IfNotPresent.', type: 'string' },
    },
    'x-go-name': 'ImageVolumeSource',
  },
  'io.k8s.api.core.v1.NodeFeatures': {
    description: 'NodeFeatures describes the set of features implemented by the CRI implementation.',
    type: 'object',
    properties: {
      supplementalGroupsPolicy: { description: 'SupplementalGroupsPolicy is set to true if the runtime supports SupplementalGroupsPolicy and ContainerUser.', type: 'boolean' },
    },
    'x-go-name': 'NodeFeatures',
  },
  'io.k8s.api.core.v1.NodeSwapStatus': {
    description: 'NodeSwapStatus represents swap memory information.',
    type: 'object',
    properties: { capacity: { description: 'Total amount of swap memory in bytes.', type: 'integer', format: 'int64' } },
    'x-go-name': 'NodeSwapStatus',
  },
  'io.k8s.api.core.v1.LinuxContainerUser': {
    description: 'LinuxContainerUser represents user identity information in Linux containers.',
    type: 'object',
    required: ['uid', 'gid'],
    properties: {
      uid: { description: 'UID is the primary uid initially attached to the first process in the container.', type: 'integer', format: 'int64' },
      gid: { description: 'GID is the primary gid initially attached to the first process in the container.', type: 'integer', format: 'int64' },
      supplementalGroups: { description: 'SupplementalGroups are the supplemental groups initially attached to the first process in the container.', type: 'array', items: { type: 'integer', format: 'int64' } },
    },
    'x-go-name': 'LinuxContainerUser',
  },
  'io.k8s.api.core.v1.ContainerUser': {
    description: 'ContainerUser represents user identity information.',
    type: 'object',
    properties: { linux: { description: 'Linux holds user identity information initially attached to the first process of the containers in Linux.', $ref: '#/definitions/io.k8s.api.core.v1.LinuxContainerUser' } },
    'x-go-name': 'ContainerUser',
  },
  'io.k8s.api.core.v1.ResourceHealth': {
    description: 'ResourceHealth represents the health of a resource.',
    type: 'object',
    required: ['resourceID'],
    properties: {
      resourceID: { description: 'ResourceID is the unique identifier of the resource.', type: 'string' },
      health: { description: 'Health of the resource: Healthy, Unhealthy or Unknown.', type: 'string' },
    },
    'x-go-name': 'ResourceHealth',
  },
  'io.k8s.api.core.v1.ResourceStatus': {
    description: 'ResourceStatus represents the status of a single resource allocated to a Pod.',
    type: 'object',
    required: ['name'],
    properties: {
      name: { description: 'Name of the resource.', type: 'string' },
      resources: { description: 'List of unique resources health.', type: 'array', items: { $ref: '#/definitions/io.k8s.api.core.v1.ResourceHealth' } },
    },
    'x-go-name': 'ResourceStatus',
  },
};
const patchProperties = {
  'io.k8s.api.core.v1.PodSecurityContext': {
    supplementalGroupsPolicy: { description: 'Defines how supplemental groups of the first container processes are calculated: Merge (default) or Strict.', type: 'string' },
    seLinuxChangePolicy: { description: 'seLinuxChangePolicy defines how the container\'s SELinux label is applied to all volumes used by the Pod: Recursive or MountOption.', type: 'string' },
  },
  'io.k8s.api.core.v1.PodSpec': {
    resources: { description: 'Resources is the total amount of CPU and Memory resources required by all containers in the pod (alpha).', $ref: '#/definitions/io.k8s.api.core.v1.ResourceRequirements' },
  },
  'io.k8s.api.core.v1.Volume': {
    image: { description: 'image represents an OCI object (a container image or artifact) pulled and mounted on the kubelet\'s host machine.', $ref: '#/definitions/io.k8s.api.core.v1.ImageVolumeSource' },
  },
  'io.k8s.api.core.v1.ContainerStatus': {
    user: { description: 'User represents user identity information initially attached to the first process of the container.', $ref: '#/definitions/io.k8s.api.core.v1.ContainerUser' },
    allocatedResourcesStatus: { description: 'AllocatedResourcesStatus represents the status of various resources allocated for this Pod.', type: 'array', items: { $ref: '#/definitions/io.k8s.api.core.v1.ResourceStatus' } },
  },
  'io.k8s.api.core.v1.NodeStatus': {
    features: { description: 'Features describes the set of features implemented by the CRI implementation.', $ref: '#/definitions/io.k8s.api.core.v1.NodeFeatures' },
  },
  'io.k8s.api.core.v1.NodeSystemInfo': {
    swap: { description: 'Swap Info reported by the node.', $ref: '#/definitions/io.k8s.api.core.v1.NodeSwapStatus' },
  },
  'io.k8s.api.core.v1.ResourceClaim': {
    request: { description: 'Request is the name chosen for a request in the referenced claim.', type: 'string' },
  },
  'io.k8s.api.coordination.v1.LeaseSpec': {
    strategy: { description: 'Strategy indicates the strategy for picking the leader for coordinated leader election.', type: 'string' },
    preferredHolder: { description: 'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.', type: 'string' },
  },
  // The vendor extensions of structural schemas, which kubernetes-types cannot spell as property names.
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps': {
    'x-kubernetes-embedded-resource': { description: 'x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta.', type: 'boolean' },
    'x-kubernetes-int-or-string': { description: 'x-kubernetes-int-or-string specifies that this value is either an integer or a string.', type: 'boolean' },
    'x-kubernetes-list-map-keys': { description: 'x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.', type: 'array', items: { type: 'string' } },
    'x-kubernetes-list-type': { description: 'x-kubernetes-list-type annotates an array to further describe its topology: atomic, set or map.', type: 'string' },
    'x-kubernetes-map-type': { description: 'x-kubernetes-map-type annotates an object to further describe its topology: granular or atomic.', type: 'string' },
    'x-kubernetes-preserve-unknown-fields': { description: 'x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema.', type: 'boolean' },
    'x-kubernetes-validations': { description: 'x-kubernetes-validations describes a list of validation rules written in the CEL expression language.', type: 'array', items: { $ref: '#/definitions/io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule' } },
  },
};

// ------------------------------------------------------------------ conversion

const definitions = {};
const kinds = [];

function jsDocText(node) {
  const docs = node.jsDoc;
  if (!docs || docs.length === 0) return undefined;
  const text = ts.getTextOfJSDocComment(docs[docs.length - 1].comment);
  return text ? text.trim() : undefined;
}

function propName(name) {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText();
}

function integerSchema(defShort, field) {
  const q = `${defShort}.${field}`;
  if (float64Qualified.has(q)) return { type: 'number', format: 'double' };
  if (int64Qualified.has(q) || int64Fields.has(field)) return { type: 'integer', format: 'int64' };
  return { type: 'integer', format: 'int32' };
}

/** Converts one type node; `ctx` = {resolve(name) → definition name, defShort, field}. */
function typeToSchema(node, ctx) {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { type: 'string' };
    case ts.SyntaxKind.NumberKeyword:
      return integerSchema(ctx.defShort, ctx.field);
    case ts.SyntaxKind.BooleanKeyword:
      return { type: 'boolean' };
    case ts.SyntaxKind.LiteralType:
      if (ts.isStringLiteral(node.literal)) return { type: 'string', enum: [node.literal.text] };
      break;
    case ts.SyntaxKind.ParenthesizedType:
      return typeToSchema(node.type, ctx);
    case ts.SyntaxKind.ArrayType:
      return { type: 'array', items: typeToSchema(node.elementType, ctx) };
    case ts.SyntaxKind.UnionType: {
      const members = node.types;
      const isNum = (t) => t.kind === ts.SyntaxKind.NumberKeyword;
      const isStr = (t) => t.kind === ts.SyntaxKind.StringKeyword;
      if (members.length === 2 && members.some(isNum) && members.some(isStr)) return { $ref: `#/definitions/${INT_OR_STRING}` };
      if (members.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))) {
        return { type: 'string', enum: members.map((t) => t.literal.text) };
      }
      return { anyOf: members.map((t) => typeToSchema(t, ctx)) };
    }
    case ts.SyntaxKind.TypeLiteral: {
      const index = node.members.find((m) => ts.isIndexSignatureDeclaration(m));
      if (index) return { type: 'object', additionalProperties: typeToSchema(index.type, ctx) };
      break;
    }
    case ts.SyntaxKind.TypeReference: {
      const name = node.typeName.getText();
      if (name === 'Array' && node.typeArguments?.length === 1) return { type: 'array', items: typeToSchema(node.typeArguments[0], ctx) };
      const target = ctx.resolve(name);
      if (target) return { $ref: `#/definitions/${target}` };
      break;
    }
  }
  throw new Error(`gen-schemas: unsupported type ${ts.SyntaxKind[node.kind]} "${node.getText()}" at ${ctx.defShort}.${ctx.field}`);
}

function gvkFromLiterals(apiVersion, kind) {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', kind, version: apiVersion } : { group: apiVersion.slice(0, slash), kind, version: apiVersion.slice(slash + 1) };
}

function convertFile(file) {
  const mod = relative(typesDir, file).replace(/\\/g, '/').replace(/\.d\.ts$/, '');
  const prefix = prefixForModule(mod);
  const source = ts.createSourceFile(file, ts.sys.readFile(file), ts.ScriptTarget.Latest, true);
  const imported = new Map();
  const local = new Set();
  for (const st of source.statements) {
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) local.add(st.name.text);
    if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
      const spec = st.moduleSpecifier.text;
      const target = relative(typesDir, resolve(dirname(file), spec)).replace(/\\/g, '/');
      for (const el of st.importClause.namedBindings.elements) imported.set(el.name.text, `${prefixForModule(target)}.${(el.propertyName ?? el.name).text}`);
    }
  }
  const resolveName = (name) => (local.has(name) ? `${prefix}.${name}` : imported.get(name));

  for (const st of source.statements) {
    if (ts.isInterfaceDeclaration(st)) {
      const name = `${prefix}.${st.name.text}`;
      const def = special(name) ?? convertInterface(st, name, resolveName);
      const description = jsDocText(st);
      definitions[name] = description ? { description, ...def } : def;
    } else if (ts.isTypeAliasDeclaration(st)) {
      const name = `${prefix}.${st.name.text}`;
      const description = jsDocText(st);
      const def = special(name) ?? { ...typeToSchema(st.type, { resolve: resolveName, defShort: st.name.text, field: '' }), 'x-go-name': st.name.text };
      definitions[name] = description ? { description, ...def } : def;
    }
  }
}

/** Definitions whose shape comes from a custom (Un)MarshalJSON in Go, not from their TypeScript form. */
function special(name) {
  const short = name.slice(name.lastIndexOf('.') + 1);
  switch (name) {
    case 'io.k8s.apimachinery.pkg.api.resource.Quantity':
      return { anyOf: [{ type: 'string' }, { type: 'number' }], 'x-kubernetes-quantity': true, 'x-go-name': short };
    case 'io.k8s.apimachinery.pkg.apis.meta.v1.Time':
    case 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime':
      return { type: 'string', format: 'date-time', 'x-go-name': short };
    case 'io.k8s.apimachinery.pkg.runtime.RawExtension':
    case 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1':
    case 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, 'x-go-name': short };
    case 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON':
      return { 'x-kubernetes-preserve-unknown-fields': true, 'x-go-name': short };
  }
  return undefined;
}

function convertInterface(decl, name, resolveName) {
  const defShort = decl.name.text;
  const properties = {};
  const required = [];
  let apiVersion;
  let kind;
  for (const m of decl.members) {
    if (!ts.isPropertySignature(m) || !m.type) continue;
    const field = propName(m.name);
    let schema = typeToSchema(m.type, { resolve: resolveName, defShort, field });
    const qualified = `${name}.${field}`;
    if (byteFields.has(qualified)) {
      schema = schema.type === 'object' ? { ...schema, additionalProperties: { type: 'string', format: 'byte' } } : { ...schema, format: 'byte' };
    }
    const description = jsDocText(m);
    const prop = {};
    if (description) prop.description = description;
    Object.assign(prop, schema);
    // The decoder derives Go type names from type/format/$ref; only named types need spelling out.
    if (goTypeOverrides[qualified]) prop['x-go-type'] = goTypeOverrides[qualified];
    if (m.modifiers?.some((mod) => mod.kind === ts.SyntaxKind.ReadonlyKeyword)) prop.readOnly = true;
    properties[field] = prop;
    if (!m.questionToken) required.push(field);
    if (field === 'apiVersion' && schema.enum?.length === 1) apiVersion = schema.enum[0];
    if (field === 'kind' && schema.enum?.length === 1) kind = schema.enum[0];
  }
  const def = { type: 'object' };
  if (required.length) def.required = required;
  def.properties = properties;
  def['x-go-name'] = defShort;
  if (apiVersion && kind) {
    const gvk = gvkFromLiterals(apiVersion, kind);
    def['x-kubernetes-group-version-kind'] = [gvk];
    kinds.push({ group: gvk.group, version: gvk.version, kind, definition: name });
  }
  return def;
}

const started = performance.now();
for (const file of inputs) convertFile(file);

definitions[INT_OR_STRING] = {
  description:
    'IntOrString is a type that can hold an int32 or a string. When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type. This allows you to have, for example, a JSON field that can accept a name or number.',
  anyOf: [{ type: 'integer', format: 'int32' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
  'x-go-name': 'IntOrString',
};
for (const [name, def] of Object.entries(patchDefinitions)) {
  if (!definitions[name]) definitions[name] = def;
}
for (const [name, props] of Object.entries(patchProperties)) {
  const def = definitions[name];
  if (!def) throw new Error(`gen-schemas: patch target ${name} is missing`);
  for (const [field, schema] of Object.entries(props)) {
    if (def.properties[field]) continue; // kubernetes-types caught up
    def.properties[field] = schema;
  }
}

// Every $ref must resolve: a dangling one would make the decoder accept anything silently.
const sorted = {};
for (const name of Object.keys(definitions).sort()) sorted[name] = definitions[name];
const text = JSON.stringify(sorted);
for (const m of text.matchAll(/"\$ref":"#\/definitions\/([^"]+)"/g)) {
  if (!sorted[m[1]]) throw new Error(`gen-schemas: dangling $ref ${m[1]}`);
}

kinds.sort((a, b) => (a.group + '/' + a.version + '/' + a.kind).localeCompare(b.group + '/' + b.version + '/' + b.kind));
mkdirSync(outDir, { recursive: true });
writeFileSync(definitionsFile, JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', definitions: sorted }));
writeFileSync(kindsFile, JSON.stringify(kinds, null, 1));
writeFileSync(stampFile, JSON.stringify(stamp, null, 1));
console.log(
  `gen-schemas: ${Object.keys(sorted).length} definitions, ${kinds.length} kinds → ${relative(root, outDir)} (${Math.round(performance.now() - started)} ms)`,
);
