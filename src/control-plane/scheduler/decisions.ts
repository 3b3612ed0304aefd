// What the UI shows as "why this node": one SchedulingDecision per scheduling attempt — per node, the plugin
// that filtered it out and why, or each plugin's score and the weighted total — in a bounded store. Scores are
// kept in typed arrays and expanded into objects only when read, so recording stays cheap at 10k pods.
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

/** What schedule-one records; nodes are materialised on read. */
export interface DecisionRecord extends Omit<SchedulingDecision, 'nodes'> {
  filtered: NodeToStatus;
  feasible: string[];
  plugins: string[];
  weights: number[];
  raw: Float64Array[];
  normalized: Int16Array[];
  totals: Float64Array;
}

/** The totals of a record not scored (yet): recordScores replaces the array, nothing writes into it. */
const noTotals = new Float64Array(0);

export function newDecisionRecord(base: Omit<SchedulingDecision, 'nodes'>): DecisionRecord {
  return { ...base, filtered: new Map(), feasible: [], plugins: [], weights: [], raw: [], normalized: [], totals: noTotals };
}

/** Stores the framework's score table compactly. */
export function recordScores(rec: DecisionRecord, table: ScoreTable): void {
  rec.feasible = table.names;
  rec.totals = table.totals;
  rec.plugins = table.plugins;
  rec.weights = table.weights;
  rec.raw = table.raw;
  rec.normalized = table.scores;
}

export function materialize(rec: DecisionRecord): SchedulingDecision {
  const { filtered, feasible, plugins, weights, raw, normalized, totals, ...base } = rec;
  const nodes: NodeDecision[] = [];
  feasible.forEach((name, j) => {
    const d: NodeDecision = { node: name };
    if (plugins.length || totals.length) {
      d.scores = plugins.map((p, i) => ({ plugin: p, raw: raw[i][j], score: normalized[i][j], weight: weights[i] }));
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
