// A small V8 heap-snapshot analyser for the heap benchmarks: parses a .heapsnapshot file, computes the dominator
// tree (Lengauer–Tarjan over strong edges; weak edges do not retain) and partitions every reachable byte by OWNER:
// the nearest class instance (or closure context) above it in the dominator tree and the property it hangs from,
// e.g. "MvccStore.history" or "TraceBus.ring". Summing self sizes by owner is a partition of the heap, so two
// snapshots' owner tables subtract cleanly into bytes per pod.
//
// Objects reachable from two owners are charged to their common dominator (as DevTools' retained size does):
// such shared bytes show up under the object that holds both owners, not under either.
import { readFileSync } from 'node:fs';

export interface SnapshotGraph {
  nodeCount: number;
  /** Per node: type index, name (string index), self size. */
  nodeType: Uint8Array;
  nodeName: Uint32Array;
  selfSize: Float64Array;
  /** CSR of outgoing edges: edges of node i are firstEdge[i] .. firstEdge[i+1]-1. */
  firstEdge: Uint32Array;
  edgeType: Uint8Array;
  /** Property name's string index, or the element index (for element and hidden edges). */
  edgeName: Uint32Array;
  edgeTo: Uint32Array;
  strings: string[];
  nodeTypes: string[];
  edgeTypes: string[];
}

/** Parses the JSON heap snapshot format by scanning bytes (a big snapshot's text exceeds V8's string limit). */
export function parseHeapSnapshot(file: string): SnapshotGraph {
  const buf = readFileSync(file);
  let pos = 0;
  const find = (needle: string): number => {
    const at = buf.indexOf(needle, pos, 'latin1');
    if (at < 0) throw new Error(`heap snapshot: "${needle}" not found`);
    return at;
  };
  const nodesAt = find('"nodes":[');
  const header = buf.toString('utf8', 0, nodesAt).replace(/,\s*$/, '') + '}';
  const meta = (JSON.parse(header) as { snapshot: { meta: Record<string, unknown>; node_count: number; edge_count: number } }).snapshot;
  const nodeFields = meta.meta.node_fields as string[];
  const edgeFields = meta.meta.edge_fields as string[];
  const nodeTypes = (meta.meta.node_types as string[][])[0];
  const edgeTypes = (meta.meta.edge_types as string[][])[0];
  const nodeCount = meta.node_count;
  const edgeCount = meta.edge_count;
  pos = nodesAt + '"nodes":['.length;

  const readInts = (count: number, into: Float64Array): void => {
    let i = 0;
    let p = pos;
    while (i < count) {
      let c = buf[p];
      while (c < 48 || c > 57) c = buf[++p];
      let v = 0;
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        c = buf[++p];
      }
      into[i++] = v;
    }
    pos = p;
  };
  const nodesRaw = new Float64Array(nodeCount * nodeFields.length);
  readInts(nodesRaw.length, nodesRaw);
  pos = find('"edges":[') + '"edges":['.length;
  const edgesRaw = new Float64Array(edgeCount * edgeFields.length);
  readInts(edgesRaw.length, edgesRaw);
  pos = find('"strings":[') + '"strings":['.length;
  const strings: string[] = [];
  // Each string is a JSON string literal; JSON.parse handles its escapes.
  for (;;) {
    let c = buf[pos];
    while (c !== 34 && c !== 93) c = buf[++pos];
    if (c === 93) break;
    let end = pos + 1;
    while (buf[end] !== 34) end += buf[end] === 92 ? 2 : 1;
    strings.push(JSON.parse(buf.toString('utf8', pos, end + 1)) as string);
    pos = end + 1;
  }

  const nf = nodeFields.length;
  const ef = edgeFields.length;
  const fType = nodeFields.indexOf('type');
  const fName = nodeFields.indexOf('name');
  const fSize = nodeFields.indexOf('self_size');
  const fEdges = nodeFields.indexOf('edge_count');
  const eType = edgeFields.indexOf('type');
  const eName = edgeFields.indexOf('name_or_index');
  const eTo = edgeFields.indexOf('to_node');
  const g: SnapshotGraph = {
    nodeCount,
    nodeType: new Uint8Array(nodeCount),
    nodeName: new Uint32Array(nodeCount),
    selfSize: new Float64Array(nodeCount),
    firstEdge: new Uint32Array(nodeCount + 1),
    edgeType: new Uint8Array(edgeCount),
    edgeName: new Uint32Array(edgeCount),
    edgeTo: new Uint32Array(edgeCount),
    strings,
    nodeTypes,
    edgeTypes,
  };
  let e = 0;
  for (let i = 0; i < nodeCount; i++) {
    g.nodeType[i] = nodesRaw[i * nf + fType];
    g.nodeName[i] = nodesRaw[i * nf + fName];
    g.selfSize[i] = nodesRaw[i * nf + fSize];
    g.firstEdge[i] = e;
    e += nodesRaw[i * nf + fEdges];
  }
  g.firstEdge[nodeCount] = e;
  for (let j = 0; j < edgeCount; j++) {
    g.edgeType[j] = edgesRaw[j * ef + eType];
    g.edgeName[j] = edgesRaw[j * ef + eName];
    g.edgeTo[j] = edgesRaw[j * ef + eTo] / nf;
  }
  return g;
}

export interface Dominators {
  /** Reachable nodes in DFS preorder (root first). */
  order: Uint32Array;
  /** Immediate dominator of each node (the root's is itself); unreachable nodes: 0xffffffff. */
  idom: Uint32Array;
  retained: Float64Array;
  /** Strong predecessors of each reachable node, CSR by DFS number (1-based): preds[predStart[d]..predStart[d+1]). */
  predStart: Uint32Array;
  preds: Uint32Array;
  /** DFS number of each node (0 = unreachable); vertex[d] is the node of DFS number d. */
  dfnum: Uint32Array;
  vertex: Uint32Array;
}

/** Lengauer–Tarjan (simple version, iterative) from node 0, the snapshot's synthetic root. */
export function dominators(g: SnapshotGraph): Dominators {
  const N = g.nodeCount;
  const weak = g.edgeTypes.indexOf('weak');
  const strong = (j: number): boolean => g.edgeType[j] !== weak;
  const dfnum = new Uint32Array(N); // 1-based; 0 = unreached
  const vertex = new Uint32Array(N + 1);
  const parent = new Uint32Array(N + 1); // in dfnum space
  let n = 0;
  const stackNode = new Uint32Array(N);
  const stackEdge = new Uint32Array(N);
  let sp = 0;
  dfnum[0] = ++n;
  vertex[n] = 0;
  stackNode[sp] = 0;
  stackEdge[sp++] = g.firstEdge[0];
  while (sp > 0) {
    const v = stackNode[sp - 1];
    const j = stackEdge[sp - 1];
    if (j >= g.firstEdge[v + 1]) {
      sp--;
      continue;
    }
    stackEdge[sp - 1] = j + 1;
    if (!strong(j)) continue;
    const w = g.edgeTo[j];
    if (dfnum[w] !== 0) continue;
    dfnum[w] = ++n;
    vertex[n] = w;
    parent[n] = dfnum[v];
    stackNode[sp] = w;
    stackEdge[sp++] = g.firstEdge[w];
  }
  // Predecessors in dfnum space (CSR).
  const predCount = new Uint32Array(n + 2);
  for (let v = 0; v < N; v++) {
    if (dfnum[v] === 0) continue;
    for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1]; j++) if (strong(j)) predCount[dfnum[g.edgeTo[j]] + 1]++;
  }
  for (let i = 1; i <= n + 1; i++) predCount[i] += predCount[i - 1];
  const preds = new Uint32Array(predCount[n + 1]);
  const fill = predCount.slice();
  for (let v = 0; v < N; v++) {
    if (dfnum[v] === 0) continue;
    for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1]; j++) if (strong(j)) preds[fill[dfnum[g.edgeTo[j]]]++] = dfnum[v];
  }

  const semi = new Uint32Array(n + 1);
  const idomD = new Uint32Array(n + 1);
  const ancestor = new Uint32Array(n + 1);
  const label = new Uint32Array(n + 1);
  const bucketHead = new Uint32Array(n + 1);
  const bucketNext = new Uint32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    semi[i] = i;
    label[i] = i;
  }
  const path: number[] = [];
  const evalNode = (v: number): number => {
    if (ancestor[v] === 0) return v;
    let u = v;
    while (ancestor[ancestor[u]] !== 0) {
      path.push(u);
      u = ancestor[u];
    }
    while (path.length) {
      const x = path.pop()!;
      const a = ancestor[x];
      if (semi[label[a]] < semi[label[x]]) label[x] = label[a];
      ancestor[x] = ancestor[a];
    }
    return label[v];
  };
  for (let w = n; w >= 2; w--) {
    for (let k = predCount[w]; k < predCount[w + 1]; k++) {
      const u = evalNode(preds[k]);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    const s = semi[w];
    bucketNext[w] = bucketHead[s];
    bucketHead[s] = w;
    const p = parent[w];
    ancestor[w] = p;
    for (let v = bucketHead[p]; v !== 0; v = bucketNext[v]) {
      const u = evalNode(v);
      idomD[v] = semi[u] < semi[v] ? u : p;
    }
    bucketHead[p] = 0;
  }
  for (let w = 2; w <= n; w++) if (idomD[w] !== semi[w]) idomD[w] = idomD[idomD[w]];
  idomD[1] = 1;

  const order = new Uint32Array(n);
  const idom = new Uint32Array(N).fill(0xffffffff);
  for (let i = 1; i <= n; i++) {
    order[i - 1] = vertex[i];
    idom[vertex[i]] = vertex[idomD[i]];
  }
  const retained = new Float64Array(N);
  for (let i = n; i >= 1; i--) {
    const v = vertex[i];
    retained[v] += g.selfSize[v];
    if (i > 1) retained[vertex[idomD[i]]] += retained[v];
  }
  return { order, idom, retained, predStart: predCount, preds, dfnum, vertex };
}

/** Node names that are containers, not owners: bytes under them belong to whoever holds the container. */
const genericNames = new Set(['Object', 'Array', 'Map', 'Set', 'WeakMap', 'WeakSet', 'Float64Array', 'Uint32Array', 'Int32Array', 'Uint8Array', 'ArrayBuffer', 'Promise']);

export interface OwnerTable {
  /** Self bytes by owner label; the labels partition every reachable byte. */
  bytes: Map<string, number>;
  /** Object count by owner label. */
  objects: Map<string, number>;
  totalBytes: number;
  /** For labels matching the detail pattern given to ownerTable: bytes and count by "node type name" (what they are). */
  detail: Map<string, { bytes: number; objects: number }>;
}

/**
 * Every reachable node's owner: for a node whose immediate dominator D is an owner (a class instance, closure or
 * closure context), "<D's name>.<edge from D to it>"; otherwise its dominator's owner label. Owners themselves are
 * labelled like any other node, so a Kubelet's per-pod PodWorker bytes read "PodWorker.status" while the
 * PodWorker objects' own headers read "Map@Kubelet.workers"-style labels from above.
 */
export function ownerTable(g: SnapshotGraph, d: Dominators, detailOf?: RegExp): OwnerTable {
  const tObject = g.nodeTypes.indexOf('object');
  const tClosure = g.nodeTypes.indexOf('closure');
  const isOwner = (v: number): boolean => {
    const t = g.nodeType[v];
    const name = g.strings[g.nodeName[v]];
    if (t === tClosure) return true;
    if (name === 'system / Context') return true;
    return t === tObject && !genericNames.has(name) && !name.startsWith('system /');
  };
  const ownerName = (v: number): string => {
    const t = g.nodeType[v];
    const name = g.strings[g.nodeName[v]];
    if (t === tClosure) return `${name || '(anonymous)'}()`;
    if (name === 'system / Context') return 'ctx';
    return name;
  };
  const hiddenish = new Set(['element', 'hidden'].map((t) => g.edgeTypes.indexOf(t)));
  const edgeLabel = (from: number, to: number): string => {
    for (let j = g.firstEdge[from]; j < g.firstEdge[from + 1]; j++) {
      if (g.edgeTo[j] !== to) continue;
      if (hiddenish.has(g.edgeType[j])) return `[${g.edgeType[j] === g.edgeTypes.indexOf('element') ? 'elem' : 'hidden'}]`;
      const name = g.strings[g.edgeName[j]];
      // V8 names a WeakMap entry's edge after its slot and the node ids ("15 / part of key (Object @97607) -> value
      // … pair in WeakMap (table @98927)"), which differ between snapshots: one stable name keeps them comparable.
      return name.includes(' / part of key ') ? '[WeakMap value]' : name;
    }
    return '?';
  };
  const labels: string[] = new Array<string>(g.nodeCount);
  const bytes = new Map<string, number>();
  const objects = new Map<string, number>();
  let totalBytes = 0;
  const detail = new Map<string, { bytes: number; objects: number }>();
  for (let i = 0; i < d.order.length; i++) {
    const v = d.order[i];
    let l: string;
    if (i === 0) l = '(root)';
    else {
      const dom = d.idom[v];
      if (isOwner(dom)) {
        const parentLabel = labels[dom];
        // Context variables are more telling with the closure (or owner) they belong to.
        const prefix = ownerName(dom) === 'ctx' ? `ctx<${parentLabel.length > 80 ? '…' + parentLabel.slice(-80) : parentLabel}>` : ownerName(dom);
        l = `${prefix}.${edgeLabel(dom, v)}`;
      } else l = labels[dom];
    }
    labels[v] = l;
  }
  // Objects held by several owners are dominated by something owner-less above them all (the root, or the
  // cluster's plain object): name them by the owners that reference them directly, e.g.
  // "shared{Indexer.items + MvccStore.history}"; what they alone hold inherits that name.
  // A Kubernetes object names its kind, so stored Pods and Events part. It is a plain object with a string "kind",
  // a string "apiVersion" and an object "metadata": a "kind" alone is not enough (an Event's involvedObject and
  // every other ObjectReference has kind and apiVersion but no metadata; the API schema's codecs have a kind).
  const tString = new Set(['string', 'concatenated string', 'sliced string'].map((t) => g.nodeTypes.indexOf(t)));
  const kindOf = (v: number): string | undefined => {
    if (g.nodeType[v] !== tObject || g.strings[g.nodeName[v]] !== 'Object') return undefined;
    let kind: string | undefined;
    let apiVersion = false;
    let metadata = false;
    for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1]; j++) {
      if (hiddenish.has(g.edgeType[j])) continue;
      const name = g.strings[g.edgeName[j]];
      const t = g.edgeTo[j];
      if (name === 'kind') kind = tString.has(g.nodeType[t]) ? g.strings[g.nodeName[t]] : undefined;
      else if (name === 'apiVersion') apiVersion = tString.has(g.nodeType[t]);
      else if (name === 'metadata') metadata = g.nodeType[t] === tObject;
    }
    // Kubernetes kinds are UpperCamelCase (a trace event's "api.stage" is not one).
    return kind !== undefined && apiVersion && metadata && /^[A-Z][A-Za-z0-9]*$/.test(kind) ? kind : undefined;
  };
  // Inside a Kubernetes object the label also names the path (three levels deep), e.g.
  // "shared{Indexer.items + MvccStore.kvs}:Event.metadata.managedFields".
  const extend = (path: string, edge: string): string => (edge === '?' || path.split('.').length > 3 ? path : `${path}.${edge}`);
  // A WeakMap's value is held through its key (an ephemeron edge) but is not part of it: a cache keyed by a
  // pod's spec does not make its values the Pod's bytes.
  const weakValue = '[WeakMap value]';
  const within = (u: number, v: number): string | undefined => {
    if (kindPath[u] === undefined) return undefined;
    const edge = edgeLabel(u, v);
    return edge === weakValue ? undefined : extend(kindPath[u]!, edge);
  };
  const ownerPart: string[] = new Array<string>(g.nodeCount);
  const kindPath: (string | undefined)[] = new Array<string | undefined>(g.nodeCount);
  const sharedOwners = new Map<string, string[]>();
  const sharedOwnerPart = (v: number): string | undefined => {
    const owners = new Set<string>();
    const d0 = d.dfnum[v];
    for (let k = d.predStart[d0]; k < d.predStart[d0 + 1]; k++) {
      const p = d.vertex[d.preds[k]];
      const l = ownerPart[p] ?? labels[p];
      if (l === '(root)') continue;
      for (const o of sharedOwners.get(l) ?? [l]) owners.add(o);
    }
    if (owners.size === 0) return undefined;
    const list = [...owners].sort();
    if (list.length === 1) return list[0];
    const label = `shared{${list.slice(0, 4).join(' + ')}${list.length > 4 ? ` + ${list.length - 4} more` : ''}}`;
    sharedOwners.set(label, list);
    return label;
  };
  const sharedKindPath = (v: number): string | undefined => {
    const d0 = d.dfnum[v];
    for (let k = d.predStart[d0]; k < d.predStart[d0 + 1]; k++) {
      const path = within(d.vertex[d.preds[k]], v);
      if (path !== undefined) return path;
    }
    return kindPath[d.idom[v]];
  };
  for (let i = 0; i < d.order.length; i++) {
    const v = d.order[i];
    const isShared = labels[v] === '(root)' && i > 0;
    const owner = isShared ? sharedOwnerPart(v) ?? ownerPart[d.idom[v]] ?? labels[v] : labels[v];
    ownerPart[v] = owner;
    const kind = kindOf(v);
    const u = d.idom[v];
    kindPath[v] = kind ?? (i === 0 ? undefined : isShared ? sharedKindPath(v) : within(u, v));
    // What nothing owns is named by its node type (strings, code, …), to tell it apart.
    const who = owner === '(root)' ? `(root)[${g.nodeTypes[g.nodeType[v]]}]` : owner;
    const l = kindPath[v] !== undefined ? `${who}:${kindPath[v]}` : who;
    bytes.set(l, (bytes.get(l) ?? 0) + g.selfSize[v]);
    objects.set(l, (objects.get(l) ?? 0) + 1);
    totalBytes += g.selfSize[v];
    if (detailOf?.test(l)) {
      const name = g.strings[g.nodeName[v]];
      // An object's shape: its first few property names.
      const props: string[] = [];
      if (g.nodeType[v] === tObject) {
        for (let j = g.firstEdge[v]; j < g.firstEdge[v + 1] && props.length < 5; j++) {
          if (g.edgeTypes[g.edgeType[j]] === 'property') props.push(g.strings[g.edgeName[j]]);
        }
      }
      const what = `${l} | ${g.nodeTypes[g.nodeType[v]]} ${name.length > 40 ? name.slice(0, 40) + '…' : name}${props.length ? ` {${props.join(',')}}` : ''}`;
      const row = detail.get(what) ?? { bytes: 0, objects: 0 };
      row.bytes += g.selfSize[v];
      row.objects++;
      detail.set(what, row);
    }
  }
  return { bytes, objects, totalBytes, detail };
}

/** The biggest retainers: nodes with the largest retained size, with their owner chain, for a quick look. */
export function topRetainers(g: SnapshotGraph, d: Dominators, count: number, minBytes: number): { name: string; retained: number; chain: string }[] {
  const out: { name: string; retained: number; chain: string }[] = [];
  for (const v of d.order) {
    if (d.retained[v] < minBytes) continue;
    out.push({ name: g.strings[g.nodeName[v]], retained: d.retained[v], chain: '' });
  }
  out.sort((a, b) => b.retained - a.retained);
  return out.slice(0, count);
}
