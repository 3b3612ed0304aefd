// How each list of a built-in kind merges, from the struct tags of k8s.io/api: `patchStrategy:"merge"` +
// `patchMergeKey` drive strategic merge patch; `+listType=map` + `+listMapKey` (and `+listType=set`) drive
// server-side apply. Lists not named here are atomic: a patch or an apply replaces them whole
// (tolerations, command, args, envFrom, rules, taints…). Custom resources use their schema instead (see
// crd/schema-list-types.ts).

export type ListType =
  | { type: 'map'; /** strategic merge patch key */ mergeKey: string; /** server-side apply keys */ keys: string[] }
  | { type: 'set' }
  | { type: 'atomic' };

const atomic: ListType = { type: 'atomic' };
const set: ListType = { type: 'set' };
const map = (mergeKey: string, keys: string[] = [mergeKey]): ListType => ({ type: 'map', mergeKey, keys });

/** Lists of a PodSpec (found at spec, spec.template.spec, spec.jobTemplate.spec.template.spec, template.spec). */
const podSpecLists: Record<string, ListType> = {
  containers: map('name'),
  initContainers: map('name'),
  ephemeralContainers: map('name'),
  volumes: map('name'),
  imagePullSecrets: map('name'),
  hostAliases: map('ip'),
  topologySpreadConstraints: map('topologyKey', ['topologyKey', 'whenUnsatisfiable']),
  schedulingGates: map('name'),
  resourceClaims: map('name'),
};

/** Lists of a Container. */
const containerLists: Record<string, ListType> = {
  ports: map('containerPort', ['containerPort', 'protocol']),
  env: map('name'),
  volumeMounts: map('mountPath'),
  volumeDevices: map('devicePath'),
};

const statusLists: Record<string, ListType> = {
  conditions: map('type'),
  addresses: map('type'), // Node
  podIPs: map('ip'),
  hostIPs: map('ip'),
};

const containerListNames = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/**
 * The list type at a path of field names (list indices left out): ["spec","template","spec","containers"].
 * kind is the object's kind, for the few lists that depend on it (Service ports).
 */
export function listTypeAt(path: readonly string[], kind: string): ListType {
  const n = path.length;
  const name = path[n - 1];
  const parent = path[n - 2];
  if (parent === 'metadata') {
    if (name === 'finalizers') return set;
    if (name === 'ownerReferences') return map('uid');
    return atomic;
  }
  if (parent === 'status' && n === 2 && statusLists[name]) return statusLists[name];
  if (parent === 'spec' || (parent === 'template' && n === 2 && kind === 'PodTemplate')) {
    if (kind === 'Service' && n === 2 && name === 'ports') return map('port', ['port', 'protocol']);
    if (hasOwnKey(podSpecLists, name) && isPodSpecPath(path.slice(0, n - 1), kind)) return podSpecLists[name];
  }
  if (containerListNames.has(parent) && hasOwnKey(containerLists, name)) return containerLists[name];
  return atomic;
}

function hasOwnKey(rec: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(rec, key);
}

/** Whether a path of field names points at a PodSpec of the given kind. */
function isPodSpecPath(path: readonly string[], kind: string): boolean {
  const p = path.join('.');
  if (kind === 'Pod') return p === 'spec';
  if (kind === 'PodTemplate') return p === 'template.spec';
  if (kind === 'CronJob') return p === 'spec.jobTemplate.spec.template.spec';
  return p === 'spec.template.spec';
}

/**
 * Structs and maps server-side apply treats as one value (`+structType=atomic`, `+mapType=atomic`): owning
 * them means owning all of them. Label selectors and node selectors are the common ones.
 */
export function isAtomicMapAt(path: readonly string[]): boolean {
  const n = path.length;
  const name = path[n - 1];
  if (name === 'selector') {
    // metav1.LabelSelector is atomic; so is Service.spec.selector (a map with mapType=atomic).
    return path[n - 2] === 'spec' || path[n - 2] === 'labelSelector';
  }
  if (name === 'nodeSelector' && path[n - 2] === 'spec') return true;
  if (name === 'labelSelector' || name === 'namespaceSelector') return true;
  return false;
}

/** What the merge routines need to know about a kind's schema. */
export interface SchemaHints {
  listType(path: readonly string[]): ListType;
  isAtomicMap(path: readonly string[]): boolean;
}

/** Hints for a built-in kind, from the tables above. */
export function builtinSchemaHints(kind: string): SchemaHints {
  return {
    listType: (path) => listTypeAt(path, kind),
    isAtomicMap: (path) => isAtomicMapAt(path),
  };
}
