// What the UI shows as "why this node": one SchedulingDecision per scheduling attempt — per node, the plugin
// that filtered it out and why, or each plugin's score and the weighted total — in a bounded store. Scores are
// kept in typed arrays and expanded into objects only when read, so recording stays cheap at 10k pods.
//
// Memory: the store keeps the last 512 attempts whatever the cluster's size, and an attempt on a 1,000-node cluster
// scores hundreds of nodes per plugin. The framework's score table (a Float64Array per plugin for raw scores, a
// Uint8Array per plugin after normalizing, Float64 totals: scratch space it reuses) is therefore copied out when
// recorded: each of raw, normalized and totals becomes ONE array (plugin after plugin) of the narrowest type that
// holds every value exactly — scores are small integers, so usually a byte per node and plugin.
import type { NodeToStatus } from './framework/interface';
import type { ScoreTable } from './framework/runtime';

export const DecisionResult = {
  Scheduled: 'Scheduled',
  Unschedulable: 'Unschedulable',
  Error: 'Error',
} as const;
export type DecisionResult = (typeof DecisionResult)[keyof typeof DecisionResult];

export interface NodeFilterResult {
  plugin: string;
  code: string;
  reasons: string[];
}

export interface NodePluginScore {
  plugin: string;
  /** As the plugin's Score returned it. */
  raw: number;
  /** After NormalizeScore, 0–100. */
  score: number;
  weight: number;
}

export interface NodeDecision {
  node: string;
  /** Set when a filter rejected the node: the first plugin that did, and its reasons. */
  filtered?: NodeFilterResult;
  /** Set for feasible nodes when scoring ran. */
  scores?: NodePluginScore[];
  /** Σ score × weight. */
  total?: number;
  chosen?: boolean;
}

export interface SchedulingDecision {
  /** namespace/name */
  pod: string;
  uid: string;
  /** The pod's attempt number (1 for the first). */
  attempt: number;
  /** The scheduler's scheduling cycle. */
  cycle: number;
  /** Virtual time of the attempt, ms. */
  time: number;
  result: DecisionResult;
  /** The chosen node (Scheduled), also while its binding is pending. */
  node?: string;
  /** Whether the binding went through (undefined while pending). */
  bound?: boolean;
  /** The FailedScheduling message, or the binding error. */
  message?: string;
  /** Set by preemption. */
  nominatedNode?: string;
  numAllNodes: number;
  /** Nodes the filters ran on (all of them unless percentageOfNodesToScore cut the search short). */
  evaluatedNodes: number;
  feasibleNodes: number;
  nodes: NodeDecision[];
}

/** A packed numeric column: whichever typed array holds its values exactly (see packExact). */
export type PackedNumbers = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Float64Array;

/**
 * The feasible nodes' names in the order they were scored: the names, or the nodes' positions in a node list. A
 * record of a 1,000-node cluster names ~420 nodes and the store keeps it for 512 attempts, so an array of names would
 * be promoted by the garbage collector, and later collected, with every record; a typed array of positions is
 * neither scanned nor copied by it.
 */
export type FeasibleNodes = readonly string[] | NodePositions;

export interface NodePositions {
  /**
   * A node list (the scheduler cache's as it was then: the record keeps it). The cache makes a new list only when a
   * node comes, goes or moves zone, so records share a few lists.
   */
  readonly nodes: readonly { readonly name: string }[];
  readonly at: Uint16Array | Int32Array;
}

export function feasibleNames(feasible: FeasibleNodes): readonly string[] {
  if (isNames(feasible)) return feasible;
  const { nodes, at } = feasible;
  return Array.from(at, (i) => nodes[i]!.name);
}

function isNames(feasible: FeasibleNodes): feasible is readonly string[] {
  return Array.isArray(feasible);
}

/** What schedule-one records; nodes are materialised on read. */
export interface DecisionRecord extends Omit<SchedulingDecision, 'nodes'> {
  filtered: NodeToStatus;
  feasible: FeasibleNodes;
  plugins: string[];
  weights: number[];
  /** Raw scores, plugin i's for feasible node j at i × feasible.length + j. */
  raw: PackedNumbers;
  /** Normalized scores, laid out as raw. */
  normalized: PackedNumbers;
  /** Per feasible node; empty when scoring did not run. */
  totals: PackedNumbers;
}

/** The columns of a record not scored (yet): recordScores replaces them, nothing writes into them. */
const empty = new Uint8Array(0);

/** The fields an attempt's record starts with. */
export type DecisionStart = Pick<SchedulingDecision, 'pod' | 'uid' | 'attempt' | 'cycle' | 'time' | 'result' | 'numAllNodes' | 'evaluatedNodes' | 'feasibleNodes'>;

/** Until filtering runs: no node filtered out. Never written (schedule-one replaces it with the diagnosis's). */
const noneFiltered: NodeToStatus = new Map();

export function newDecisionRecord(s: DecisionStart): DecisionRecord {
  // Written out rather than spread: one record per scheduling attempt.
  return {
    pod: s.pod,
    uid: s.uid,
    attempt: s.attempt,
    cycle: s.cycle,
    time: s.time,
    result: s.result,
    numAllNodes: s.numAllNodes,
    evaluatedNodes: s.evaluatedNodes,
    feasibleNodes: s.feasibleNodes,
    filtered: noneFiltered,
    feasible: [],
    plugins: [],
    weights: [],
    raw: empty,
    normalized: empty,
    totals: empty,
  };
}

/**
 * Copies `columns` (each of length n) one after the other into the narrowest typed array that represents every
 * value exactly: an integer type when all are integers in its range (and none is -0, which an integer array would
 * turn into 0), Float64Array otherwise. Reading element k back gives the very number that was stored.
 */
export function packExact(columns: readonly ArrayLike<number>[], n: number): PackedNumbers {
  let min = 0;
  let max = 0;
  let integers = true;
  // Byte columns only (the normalized scores): a Uint8Array holds them whatever their values, unread.
  let bytes = true;
  for (const col of columns) if (!(col instanceof Uint8Array)) bytes = false;
  if (!bytes) {
    // One value that is not an int32 (a fraction, NaN, -0, or beyond ±2^31, which only a Float64Array holds
    // anyway) settles it: the rest need not be looked at.
    scan: for (const col of columns) {
      for (let j = 0; j < n; j++) {
        const v = col[j];
        if ((v | 0) !== v || (v === 0 && 1 / v < 0)) {
          integers = false;
          break scan;
        }
        if (v < min) min = v;
        else if (v > max) max = v;
      }
    }
  }
  const length = columns.length * n;
  const out: PackedNumbers = !integers
    ? packedArray(Float64Array, length)
    : min >= 0 && max <= 0xff
      ? packedArray(Uint8Array, length)
      : min >= -0x80 && max <= 0x7f
        ? packedArray(Int8Array, length)
        : min >= 0 && max <= 0xffff
          ? packedArray(Uint16Array, length)
          : min >= -0x8000 && max <= 0x7fff
            ? packedArray(Int16Array, length)
            : min >= -0x80000000 && max <= 0x7fffffff
              ? packedArray(Int32Array, length)
              : packedArray(Float64Array, length);
  for (let i = 0; i < columns.length; i++) {
    const col = columns[i]!;
    // A typed column is copied by the engine (every value fits the chosen type exactly, as checked above).
    if (ArrayBuffer.isView(col)) out.set(col.length === n ? (col as PackedNumbers) : (col as PackedNumbers).subarray(0, n), i * n);
    else for (let j = 0; j < n; j++) out[i * n + j] = col[j]!;
  }
  return out;
}

type PackedConstructor = { new (buffer: ArrayBuffer, byteOffset: number, length: number): PackedNumbers; readonly BYTES_PER_ELEMENT: number };

/**
 * Packed columns (and node positions) are views into shared slabs rather than arrays of their own: an ArrayBuffer
 * each (four per attempt) is an allocation outside the JavaScript heap that the collector tracks, and at 5,000 nodes
 * making them took ~15 µs per pod. Records leave the store in the order they came, so a slab is freed soon after its
 * last record; a column larger than a quarter slab gets a buffer of its own.
 */
const slabBytes = 1 << 18;
let slab = new ArrayBuffer(slabBytes);
let slabUsed = 0;

function packedArray(Ctor: PackedConstructor, length: number): PackedNumbers {
  const size = Ctor.BYTES_PER_ELEMENT;
  const bytes = length * size;
  if (bytes > slabBytes / 4) return new Ctor(new ArrayBuffer(bytes), 0, length);
  // Aligned to the element size, as a typed array's offset must be.
  let at = Math.ceil(slabUsed / size) * size;
  if (at + bytes > slabBytes) {
    slab = new ArrayBuffer(slabBytes);
    at = 0;
  }
  slabUsed = at + bytes;
  return new Ctor(slab, at, length);
}

/** Room for n positions in a list of listLength nodes (NodePositions.at), from the same slabs. */
export function positionsArray(n: number, listLength: number): Uint16Array | Int32Array {
  return packedArray(listLength <= 0xffff ? Uint16Array : Int32Array, n) as Uint16Array | Int32Array;
}

/** Stores the framework's score table compactly (the table's own arrays are not kept; its names are rec.feasible's). */
export function recordScores(rec: DecisionRecord, table: ScoreTable): void {
  const n = table.names.length;
  rec.plugins = table.plugins;
  rec.weights = table.weights;
  rec.raw = packExact(table.raw, n);
  rec.normalized = packExact(table.scores, n);
  rec.totals = packExact([table.totals], table.totals.length);
}

export function materialize(rec: DecisionRecord): SchedulingDecision {
  const { filtered, feasible, plugins, weights, raw, normalized, totals, ...base } = rec;
  const names = feasibleNames(feasible);
  const n = names.length;
  const nodes: NodeDecision[] = [];
  names.forEach((name, j) => {
    const d: NodeDecision = { node: name };
    if (plugins.length || totals.length) {
      d.scores = plugins.map((p, i) => ({ plugin: p, raw: raw[i * n + j], score: normalized[i * n + j], weight: weights[i] }));
      d.total = totals[j] ?? 0;
    }
    if (name === rec.node) d.chosen = true;
    nodes.push(d);
  });
  for (const [name, s] of filtered) {
    nodes.push({ node: name, filtered: { plugin: s.plugin ?? '', code: s.code, reasons: [...s.reasons] } });
  }
  return { ...base, nodes };
}

/** A ring of the most recent attempts, indexed by pod. */
export class DecisionStore {
  private readonly ring: (DecisionRecord | undefined)[];
  private next = 0;
  private readonly byPod = new Map<string, DecisionRecord[]>();

  constructor(
    readonly capacity = 512,
    private readonly perPod = 16,
  ) {
    this.ring = new Array(capacity);
  }

  add(rec: DecisionRecord): void {
    const evicted = this.ring[this.next];
    if (evicted) this.dropFromPod(evicted);
    this.ring[this.next] = rec;
    this.next = (this.next + 1) % this.capacity;
    let list = this.byPod.get(rec.pod);
    if (!list) this.byPod.set(rec.pod, (list = []));
    list.push(rec);
    if (list.length > this.perPod) list.shift();
  }

  private dropFromPod(rec: DecisionRecord): void {
    const list = this.byPod.get(rec.pod);
    if (!list) return;
    const i = list.indexOf(rec);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.byPod.delete(rec.pod);
  }

  /** The retained attempts for a pod ("namespace/name"), oldest first. */
  decisions(podKey: string): SchedulingDecision[] {
    return (this.byPod.get(podKey) ?? []).map(materialize);
  }

  lastDecision(podKey: string): SchedulingDecision | undefined {
    const list = this.byPod.get(podKey);
    return list && list.length ? materialize(list[list.length - 1]) : undefined;
  }

  /** The most recent attempts across pods, newest first. */
  recent(limit = 50): SchedulingDecision[] {
    const out: SchedulingDecision[] = [];
    for (let i = 1; i <= this.capacity && out.length < limit; i++) {
      const rec = this.ring[(this.next - i + this.capacity) % this.capacity];
      if (!rec) break;
      out.push(materialize(rec));
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.byPod.clear();
    this.next = 0;
  }
}
