// framework.PodInfo and framework.NodeInfo (pkg/scheduler/framework/types.go): a pod with what the plugins need
// precomputed once (requests, parsed affinity terms, host ports), and a node with the running sums the filters
// read in O(1): requested resources of its pods (assumed ones included), pod count, used host ports.
import type { Node, Pod, PodAffinityTerm, Taint } from 'kubernetes-types/core/v1';
import type { Typed } from '../../client/client';
import { labelSelectorAsSelector, selectorMatches, selectorToString, type Labels, type Selector } from '../../../shared/lib/labels';
import { RecentList } from '../../../shared/lib/recent-list';
import { sharedKey } from '../../informers/keys';
import { addResource, cloneResource, emptyResource, podRequests, resourceFromList, type Resource } from './pod-resources';

export type PodObject = Typed<Pod>;
export type NodeObject = Typed<Node>;

/** framework.AffinityTerm: a PodAffinityTerm with its selectors parsed and namespaces resolved. */
export interface AffinityTerm {
  namespaces: Set<string>;
  selector: Selector;
  topologyKey: string;
  /** labels.Nothing() when the term has no namespaceSelector. */
  namespaceSelector: Selector;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** AffinityTerm.Matches: the pod is in one of the term's namespaces (or one its namespaceSelector selects) and matches the selector. */
export function affinityTermMatches(term: AffinityTerm, pod: PodObject, nsLabels: Labels): boolean {
  if (term.namespaces.has(pod.metadata.namespace ?? '') || selectorMatches(term.namespaceSelector, nsLabels)) {
    return selectorMatches(term.selector, pod.metadata.labels);
  }
  return false;
}

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

export interface PodInfo {
  readonly pod: PodObject;
  /** namespace/name */
  readonly key: string;
  readonly uid: string;
  readonly namespace: string;
  /** spec.priority (0 when unset), as corev1helpers.PodPriority. */
  readonly priority: number;
  readonly requests: Resource;
  /** Requests with the scorers' defaults for containers that request no cpu/memory. */
  readonly nonZeroRequests: Resource;
  readonly requiredAffinityTerms: AffinityTerm[];
  readonly requiredAntiAffinityTerms: AffinityTerm[];
  readonly preferredAffinityTerms: WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: WeightedAffinityTerm[];
  readonly hostPorts: HostPort[];
  /** A term whose selector does not parse (the API server does not validate them all): the term is dropped. */
  readonly parseError?: string;
}

/**
 * What a PodInfo derives from its pod's spec (with its namespace and labels, for affinity terms). Pods without
 * terms or host ports that ask for the same share one (see sharedRequests): the scheduler's cache keeps a
 * PodInfo per pod, which then holds three references besides it.
 */
interface PodDerived
  extends Pick<
    PodInfo,
    'requests' | 'nonZeroRequests' | 'requiredAffinityTerms' | 'requiredAntiAffinityTerms' | 'preferredAffinityTerms' | 'preferredAntiAffinityTerms' | 'hostPorts'
  > {
  readonly parseError: string | undefined;
}

/** The PodInfos newPodInfo makes: the pod's own fields are read from it, the rest from its shared PodDerived. */
class DerivedPodInfo implements PodInfo {
  constructor(
    readonly pod: PodObject,
    readonly key: string,
    /** Kept as a field: filters compare it for every pod of a node. */
    readonly namespace: string,
    readonly derived: PodDerived,
  ) {}

  get uid(): string {
    return this.pod.metadata.uid ?? '';
  }

  get priority(): number {
    return this.pod.spec?.priority ?? 0;
  }

  get requests(): Resource {
    return this.derived.requests;
  }

  get nonZeroRequests(): Resource {
    return this.derived.nonZeroRequests;
  }

  get requiredAffinityTerms(): AffinityTerm[] {
    return this.derived.requiredAffinityTerms;
  }

  get requiredAntiAffinityTerms(): AffinityTerm[] {
    return this.derived.requiredAntiAffinityTerms;
  }

  get preferredAffinityTerms(): WeightedAffinityTerm[] {
    return this.derived.preferredAffinityTerms;
  }

  get preferredAntiAffinityTerms(): WeightedAffinityTerm[] {
    return this.derived.preferredAntiAffinityTerms;
  }

  get hostPorts(): HostPort[] {
    return this.derived.hostPorts;
  }

  get parseError(): string | undefined {
    return this.derived.parseError;
  }
}

function mergeMatchLabelKeys(pod: Pod, sel: Selector, term: PodAffinityTerm): Selector {
  const keys = [...(term.matchLabelKeys ?? []).map((k) => [k, 'in'] as const), ...(term.mismatchLabelKeys ?? []).map((k) => [k, 'notin'] as const)];
  if (keys.length === 0 || sel.nothing) return sel;
  const labels = pod.metadata?.labels ?? {};
  const reqs = [...sel.requirements];
  for (const [k, op] of keys) if (k in labels) reqs.push({ key: k, operator: op, values: [labels[k]] });
  return { requirements: reqs };
}

function newAffinityTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const namespaces = new Set<string>();
  if ((term.namespaces ?? []).length === 0 && !term.namespaceSelector) namespaces.add(pod.metadata?.namespace ?? '');
  else for (const n of term.namespaces ?? []) namespaces.add(n);
  return {
    namespaces,
    selector: mergeMatchLabelKeys(pod, labelSelectorAsSelector(term.labelSelector), term),
    topologyKey: term.topologyKey,
    namespaceSelector: labelSelectorAsSelector(term.namespaceSelector),
  };
}

/** framework.NewPodInfo. */
/**
 * A pod's requests (and non-zero requests) depend on its spec alone, and a status write keeps the stored spec
 * object (structural sharing): every PodInfo built for the pod's updates reuses the first one's figures. They
 * are never modified (sums are added into a node's own Resource).
 */
interface SpecRequests {
  /** The figures, as the PodDerived of a pod without terms or host ports. */
  plain: PodDerived;
  /** The other inputs of podRequests, by identity. */
  initContainers: unknown;
  overhead: unknown;
}

/**
 * Keyed by the containers array rather than the spec: the assumed copy of a pod (spec.nodeName set) and the
 * bound pod the binding write returns keep the containers (and init containers, overhead) of the pod that was
 * scheduled, so they reuse its figures too.
 */
const requestsByContainers = new WeakMap<object, SpecRequests>();

function specRequests(pod: PodObject): PodDerived {
  const spec = pod.spec;
  const containers = spec?.containers;
  if (!spec || !containers || !Object.isFrozen(containers) || (spec.overhead && !Object.isFrozen(spec.overhead)) || (spec.initContainers && !Object.isFrozen(spec.initContainers))) {
    return plainDerived(podRequests(pod), podRequests(pod, true));
  }
  let r = requestsByContainers.get(containers);
  if (!r || r.initContainers !== spec.initContainers || r.overhead !== spec.overhead) {
    r = { plain: sharedRequests(podRequests(pod), podRequests(pod, true)), initContainers: spec.initContainers, overhead: spec.overhead };
    requestsByContainers.set(containers, r);
  }
  return r.plain;
}

function plainDerived(requests: Resource, nonZeroRequests: Resource): PodDerived {
  return {
    requests,
    nonZeroRequests,
    requiredAffinityTerms: none,
    requiredAntiAffinityTerms: none,
    preferredAffinityTerms: none,
    preferredAntiAffinityTerms: none,
    hostPorts: none,
    parseError: undefined,
  };
}

/**
 * Requests equal to a recent pod's are that pod's objects: the pods of one template ask for the same, and the
 * cache keeps a PodInfo per pod (read only: node totals are summed into the node's own resources).
 */
const recentRequests = new RecentList<PodDerived>(8);

function sharedRequests(requests: Resource, nonZeroRequests: Resource): PodDerived {
  return (
    recentRequests.find((r) => sameResource(r.requests, requests) && sameResource(r.nonZeroRequests, nonZeroRequests)) ??
    recentRequests.add(plainDerived(requests, nonZeroRequests))
  );
}

function sameResource(a: Resource, b: Resource): boolean {
  if (a.milliCPU !== b.milliCPU || a.memory !== b.memory || a.ephemeralStorage !== b.ephemeralStorage || a.allowedPodNumber !== b.allowedPodNumber) return false;
  const ak = Object.keys(a.scalar);
  const bk = Object.keys(b.scalar);
  if (ak.length !== bk.length) return false;
  for (let i = 0; i < ak.length; i++) if (ak[i] !== bk[i] || a.scalar[ak[i]!] !== b.scalar[ak[i]!]) return false;
  return true;
}

/**
 * The list of a pod without terms (or host ports): most pods have none, and the scheduler's cache keeps a PodInfo
 * per pod, so they all share this frozen one instead of holding five empty arrays each. Read only.
 */
const none = Object.freeze([]) as unknown as never[];

/** The pod's affinity terms parsed; a term that does not parse is left out and its error noted. */
function affinityTerms(pod: PodObject, list: PodAffinityTerm[] | undefined, errors: string[]): AffinityTerm[] {
  if (!list || list.length === 0) return none;
  const out: AffinityTerm[] = [];
  for (const t of list) {
    try {
      out.push(newAffinityTerm(pod, t));
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return out;
}

function weightedAffinityTerms(pod: PodObject, list: { weight: number; podAffinityTerm: PodAffinityTerm }[] | undefined, errors: string[]): WeightedAffinityTerm[] {
  if (!list || list.length === 0) return none;
  const out: WeightedAffinityTerm[] = [];
  for (const t of list) {
    try {
      out.push({ ...newAffinityTerm(pod, t.podAffinityTerm), weight: t.weight });
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return out;
}

export function newPodInfo(pod: PodObject): PodInfo {
  const errors: string[] = [];
  const affinity = pod.spec?.affinity;
  let hostPorts: HostPort[] = none;
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if ((p.hostPort ?? 0) <= 0) continue;
      if (hostPorts === none) hostPorts = [];
      hostPorts.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort! });
    }
  }
  const namespace = pod.metadata.namespace ?? '';
  const plain = specRequests(pod);
  const requiredAffinityTerms = affinityTerms(pod, affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, errors);
  const requiredAntiAffinityTerms = affinityTerms(pod, affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, errors);
  const preferredAffinityTerms = weightedAffinityTerms(pod, affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, errors);
  const preferredAntiAffinityTerms = weightedAffinityTerms(pod, affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, errors);
  const derived: PodDerived =
    requiredAffinityTerms === none &&
    requiredAntiAffinityTerms === none &&
    preferredAffinityTerms === none &&
    preferredAntiAffinityTerms === none &&
    hostPorts === none &&
    errors.length === 0
      ? plain
      : {
          requests: plain.requests,
          nonZeroRequests: plain.nonZeroRequests,
          requiredAffinityTerms,
          requiredAntiAffinityTerms,
          preferredAffinityTerms,
          preferredAntiAffinityTerms,
          hostPorts,
          parseError: errors.length ? errors.join(', ') : undefined,
        };
  // The string the informers store the pod under (flat: a concatenation is a tree of its pieces).
  return new DerivedPodInfo(pod, sharedKey(`${namespace}/${pod.metadata.name ?? ''}`), namespace, derived);
}

/**
 * The PodInfo of a new version of a pod that keeps the spec and labels objects of an earlier one (a status
 * write shares them): everything but the pod itself is derived from those, so it is reused, not recomputed.
 * Otherwise (or with no earlier PodInfo) a fresh newPodInfo.
 */
export function updatedPodInfo(pod: PodObject, previous: PodInfo | undefined): PodInfo {
  if (!previous) return newPodInfo(pod);
  const old = previous.pod;
  if (old === pod) return previous;
  // Frozen (informer) objects only: a mutable spec could have changed in place.
  if (old.spec !== pod.spec || !Object.isFrozen(pod.spec) || old.metadata.labels !== pod.metadata.labels || !Object.isFrozen(pod.metadata)) return newPodInfo(pod);
  if (old.metadata.uid !== pod.metadata.uid) return newPodInfo(pod);
  if (old.metadata.namespace !== pod.metadata.namespace || old.metadata.name !== pod.metadata.name) return newPodInfo(pod);
  if (!(previous instanceof DerivedPodInfo)) return newPodInfo(pod);
  return new DerivedPodInfo(pod, previous.key, previous.namespace, previous.derived);
}

function hasAffinity(pi: PodInfo): boolean {
  const a = pi.pod.spec?.affinity;
  return !!a && (!!a.podAffinity || !!a.podAntiAffinity);
}

function hasRequiredAntiAffinity(pi: PodInfo): boolean {
  return pi.requiredAntiAffinityTerms.length > 0;
}

/** Whether a pod counts towards spreading/affinity: not being deleted. */
export function isTerminating(pod: Pod): boolean {
  return !!pod.metadata?.deletionTimestamp;
}

interface SelectorCount {
  selector: Selector;
  namespace: string;
  count: number;
}

const selectorIds = new Map<string, number>();

/**
 * A small integer naming a (namespace, selector) pair, so per-node match counts are looked up by number; plugins
 * compute it once per scheduling cycle.
 */
export function selectorCountKey(selector: Selector, namespace: string): number {
  // A shared Selector (DefaultSelector's, per controller) keeps its id: no selector string to build again.
  const memo = selectorIdMemo.get(selector);
  if (memo && memo.namespace === namespace) return memo.id;
  const k = `${namespace}\u0000${selectorToString(selector)}`;
  let id = selectorIds.get(k);
  if (id === undefined) selectorIds.set(k, (id = selectorIds.size + 1));
  selectorIdMemo.set(selector, { namespace, id });
  return id;
}

/** The last (namespace, id) of each Selector object; selectors are never mutated once built. */
const selectorIdMemo = new WeakMap<Selector, { namespace: string; id: number }>();

let generation = 0;
/** framework.nextGeneration: every NodeInfo change gets a new, globally increasing number. */
export function nextGeneration(): number {
  return ++generation;
}

const maxSelectorCounts = 64;

/** Pods a NodeInfo finds by scanning its list; past this many it keeps an index (see NodeInfo.podIndex). */
const podIndexThreshold = 64;

const LabelHostname = 'kubernetes.io/hostname';
const LabelTopologyZone = 'topology.kubernetes.io/zone';

const noLabels: Readonly<Record<string, string>> = Object.freeze({});

/** Label values shared by many nodes (zones, regions, os), one string each; bounded so churn cannot grow it. */
const internedValues = new Map<string, string>();
const maxInternedValues = 4096;

function intern(value: string): string {
  const known = internedValues.get(value);
  if (known !== undefined) return known;
  if (internedValues.size < maxInternedValues) internedValues.set(value, value);
  return value;
}

/**
 * A node's labels as the scheduler reads them for every node of every cycle: a copy built in one insertion
 * order (nodes with the same label keys share one object layout, not a hash table each) whose values are
 * interned (a zone's name is one string, so comparing and hashing it touches the same memory for every
 * node). Frozen: it is read-only like the Node it comes from.
 */
function compactLabels(labels: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
  if (!labels) return noLabels;
  const keys = Object.keys(labels);
  if (keys.length === 0) return noLabels;
  const out: Record<string, string> = {};
  for (const k of keys) out[k] = intern(labels[k]);
  return Object.freeze(out);
}

export class NodeInfo {
  node: NodeObject | undefined;
  readonly pods: PodInfo[] = [];
  /**
   * Positions in pods by key, made once the node holds more than podIndexThreshold pods: below that a scan
   * of the list finds a pod as fast (keys that differ have different hashes), and a Map per node would cost
   * about 30 bytes per pod.
   */
  private podIndex: Map<string, number> | undefined = undefined;
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  /** hostIP → "protocol/port" in use. */
  readonly usedPorts = new Map<string, Set<string>>();
  requested: Resource = emptyResource();
  nonZeroRequested: Resource = emptyResource();
  allocatable: Resource = emptyResource();
  generation = nextGeneration();
  /**
   * Pods matching a (namespace, selector) pair, kept current as pods come and go, so spreading and affinity
   * count a node's matching pods in O(1) instead of walking them for every pod scheduled.
   */
  private readonly selectorCounts = new Map<number, SelectorCount>();
  /** The entry of selectorCounts last looked up (always one of its entries, or undefined). */
  private hotSelectorKey = 0;
  private hotSelectorCount: SelectorCount | undefined = undefined;

  constructor(node?: NodeObject) {
    if (node) this.setNode(node);
  }

  /** The node's name (kept as a field: it is read for every node of every scheduling cycle). */
  name = '';
  /** Its row in the cache's NodeFitRows (-1: none; valid only while that table's node list holds this NodeInfo there). */
  fitRow = -1;
  /**
   * What the filters and scorers read of the Node for every node of every cycle, kept as fields of this one
   * class (the Node objects' own shapes vary): its labels, its taints, spec.unschedulable.
   */
  labels: Readonly<Record<string, string>> = noLabels;
  /** The Node's own labels object that `labels` was built from. */
  private labelsSource: Readonly<Record<string, string>> | undefined = undefined;
  taints: readonly Taint[] | undefined = undefined;
  unschedulable = false;
  /** The labels PodTopologySpread's system default constraints spread over, read without a lookup. */
  hostnameLabel: string | undefined = undefined;
  zoneLabel: string | undefined = undefined;

  /** labels[key], the well-known topology keys from fields of this object. */
  topologyValue(key: string): string | undefined {
    if (key === LabelTopologyZone) return this.zoneLabel;
    if (key === LabelHostname) return this.hostnameLabel;
    return this.labels[key];
  }

  setNode(node: NodeObject): void {
    this.node = node;
    this.name = node.metadata.name ?? '';
    // A status write keeps the stored labels object (structural sharing): the compact copy stays valid.
    const source = node.metadata.labels;
    if (source !== this.labelsSource || !source || !Object.isFrozen(source)) {
      this.labelsSource = source;
      this.labels = compactLabels(source);
    }
    this.hostnameLabel = this.labels[LabelHostname];
    this.zoneLabel = this.labels[LabelTopologyZone];
    this.taints = node.spec?.taints;
    this.unschedulable = !!node.spec?.unschedulable;
    this.allocatable = resourceFromList(node.status?.allocatable as Record<string, unknown> | undefined);
    this.generation = nextGeneration();
  }

  /** The Node was deleted while pods remain bound to it: the NodeInfo keeps its name and pods only. */
  clearNode(): void {
    this.node = undefined;
    this.labels = noLabels;
    this.labelsSource = undefined;
    this.hostnameLabel = undefined;
    this.zoneLabel = undefined;
    this.taints = undefined;
    this.unschedulable = false;
  }

  hasPod(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  getPod(key: string): PodInfo | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.pods[i];
  }

  addPod(pi: PodInfo): void {
    if (this.indexOf(pi.key) >= 0) this.removePod(pi.key);
    this.pods.push(pi);
    this.indexed(pi.key, this.pods.length - 1);
    if (hasAffinity(pi)) this.podsWithAffinity = [...this.podsWithAffinity, pi];
    if (hasRequiredAntiAffinity(pi)) this.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity, pi];
    this.update(pi, 1);
  }

  /** Returns the removed PodInfo, or undefined when the pod was not on this node. */
  removePod(key: string): PodInfo | undefined {
    const i = this.indexOf(key);
    if (i < 0) return undefined;
    const pi = this.pods[i];
    const last = this.pods.pop()!;
    if (last !== pi) {
      this.pods[i] = last;
      this.podIndex?.set(last.key, i);
    }
    this.podIndex?.delete(key);
    if (hasAffinity(pi)) this.podsWithAffinity = this.podsWithAffinity.filter((p) => p.key !== key);
    if (hasRequiredAntiAffinity(pi)) this.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.filter((p) => p.key !== key);
    this.update(pi, -1);
    return pi;
  }

  /**
   * Replaces a pod's PodInfo by one that counts the same (updatedPodInfo reused its requests, ports and terms,
   * and its labels and deletion state are unchanged): the pod list changes as removePod then addPod change it,
   * and the sums, which would lose and regain the same amounts, are left as they are. False when the pod is
   * not here or counts differently: then the caller removes and adds.
   */
  replacePod(pi: PodInfo): boolean {
    const i = this.indexOf(pi.key);
    if (i < 0) return false;
    const old = this.pods[i];
    if (
      old.requests !== pi.requests ||
      old.nonZeroRequests !== pi.nonZeroRequests ||
      old.hostPorts !== pi.hostPorts ||
      old.namespace !== pi.namespace ||
      old.pod.metadata.labels !== pi.pod.metadata.labels ||
      isTerminating(old.pod) !== isTerminating(pi.pod) ||
      hasAffinity(old) !== hasAffinity(pi) ||
      hasRequiredAntiAffinity(old) !== hasRequiredAntiAffinity(pi)
    ) {
      return false;
    }
    // removePod's swap-with-last, then addPod's append: the same order as before.
    const last = this.pods.pop()!;
    if (last !== old) {
      this.pods[i] = last;
      this.podIndex?.set(last.key, i);
    }
    this.pods.push(pi);
    this.podIndex?.set(pi.key, this.pods.length - 1);
    if (hasAffinity(pi)) this.podsWithAffinity = [...this.podsWithAffinity.filter((p) => p.key !== pi.key), pi];
    if (hasRequiredAntiAffinity(pi)) this.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity.filter((p) => p.key !== pi.key), pi];
    this.generation = nextGeneration();
    return true;
  }

  /** The pod's position in pods, or -1. */
  private indexOf(key: string): number {
    const index = this.podIndex;
    if (index !== undefined) return index.get(key) ?? -1;
    const pods = this.pods;
    for (let i = 0; i < pods.length; i++) if (pods[i].key === key) return i;
    return -1;
  }

  /** Notes a pod appended at position i, making the index when the list has outgrown a scan. */
  private indexed(key: string, i: number): void {
    if (this.podIndex !== undefined) this.podIndex.set(key, i);
    else if (this.pods.length > podIndexThreshold) {
      const index = new Map<string, number>();
      for (let j = 0; j < this.pods.length; j++) index.set(this.pods[j].key, j);
      this.podIndex = index;
    }
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    addResource(this.requested, pi.requests, sign);
    addResource(this.nonZeroRequested, pi.nonZeroRequests, sign);
    for (const hp of pi.hostPorts) {
      let set = this.usedPorts.get(hp.ip);
      if (!set) this.usedPorts.set(hp.ip, (set = new Set()));
      if (sign > 0) set.add(`${hp.protocol}/${hp.port}`);
      else set.delete(`${hp.protocol}/${hp.port}`);
    }
    if (!isTerminating(pi.pod)) {
      for (const sc of this.selectorCounts.values()) {
        if (pi.namespace === sc.namespace && selectorMatches(sc.selector, pi.pod.metadata.labels)) sc.count += sign;
      }
    }
    this.generation = nextGeneration();
  }

  /**
   * countPodsMatchSelector: pods on this node in the namespace, not being deleted, matching the selector.
   * Memoised per (namespace, selector) and maintained incrementally.
   */
  countPodsMatchSelector(selector: Selector, namespace: string, key = selectorCountKey(selector, namespace)): number {
    if (selector.nothing) return 0;
    // Every node of a cycle is asked about the same selector: the last one answered is kept at hand.
    const hot = this.hotSelectorCount;
    if (hot !== undefined && this.hotSelectorKey === key) return hot.count;
    const cached = this.selectorCounts.get(key);
    if (cached) {
      this.hotSelectorKey = key;
      this.hotSelectorCount = cached;
      return cached.count;
    }
    let count = 0;
    for (const pi of this.pods) {
      if (pi.namespace !== namespace || isTerminating(pi.pod)) continue;
      if (selectorMatches(selector, pi.pod.metadata.labels)) count++;
    }
    if (this.selectorCounts.size >= maxSelectorCounts) this.selectorCounts.clear();
    const sc = { selector, namespace, count };
    this.selectorCounts.set(key, sc);
    this.hotSelectorKey = key;
    this.hotSelectorCount = sc;
    return count;
  }

  /** A copy whose pod list and sums can be changed (preemption's dry run) without touching this one. */
  clone(): NodeInfo {
    const c = new NodeInfo();
    c.node = this.node;
    c.name = this.name;
    c.labels = this.labels;
    c.hostnameLabel = this.hostnameLabel;
    c.zoneLabel = this.zoneLabel;
    c.taints = this.taints;
    c.unschedulable = this.unschedulable;
    c.allocatable = cloneResource(this.allocatable);
    c.requested = cloneResource(this.requested);
    c.nonZeroRequested = cloneResource(this.nonZeroRequested);
    for (const pi of this.pods) {
      c.pods.push(pi);
      c.indexed(pi.key, c.pods.length - 1);
    }
    c.podsWithAffinity = [...this.podsWithAffinity];
    c.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity];
    for (const [ip, set] of this.usedPorts) c.usedPorts.set(ip, new Set(set));
    for (const [k, sc] of this.selectorCounts) c.selectorCounts.set(k, { ...sc });
    c.generation = this.generation;
    return c;
  }
}
