// frameworkImpl (pkg/scheduler/framework/runtime/framework.go): a profile's plugins arranged per extension point,
// run in the profile's order. Filters stop at the first plugin that rejects a node; scores are normalised per
// plugin and summed with the plugin weights.
import type { NodeFitRows } from '../cache/node-fit-rows';
import type { CycleState } from './cycle-state';
import {
  MaxNodeScore,
  type AnyPlugin,
  type BindPlugin,
  type ClusterEventWithHint,
  type FilterPlugin,
  type NodeScore,
  type NodeToStatus,
  type PermitPlugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreFilterPlugin,
  type PreFilterResult,
  type PreScorePlugin,
  type ReservePlugin,
  type PreBindPlugin,
  type ScorePlugin,
  type SharedLister,
} from './interface';
import { Code, isSuccess, newStatus, type Status } from './status';
import type { NodeInfo, PodInfo } from './types';

export interface WeightedPlugin {
  plugin: AnyPlugin;
  /** Score weight (default 1). */
  weight?: number;
}

/**
 * framework.NodePluginScores for every scored node, column-wise: per plugin its raw and normalised scores as
 * typed arrays aligned with `names`, and the weighted totals. Built for every pod, so its columns are views of
 * the framework's scratch space: they hold until the next runScorePlugins (recordScores copies them out).
 */
export interface ScoreTable {
  names: string[];
  plugins: string[];
  weights: number[];
  /** As Score returned them, per plugin. */
  raw: Float64Array[];
  /** After NormalizeScore, in [0, MaxNodeScore], per plugin (a byte holds every score checkScore lets through). */
  scores: Uint8Array[];
  /** Σ score × weight, per node. */
  totals: Float64Array;
}

function checkScore(plugin: string, score: number): number {
  if (score > MaxNodeScore || score < 0) throw invalidScore(plugin, score);
  return score;
}

function invalidScore(plugin: string, score: number): Error {
  return new Error(`plugin "${plugin}" returns an invalid score ${score}, it should in the range of [0, ${MaxNodeScore}] after normalizing`);
}

function has<K extends keyof AnyPlugin>(p: AnyPlugin, k: K): boolean {
  return typeof p[k] === 'function';
}

export class Framework {
  readonly preFilterPlugins: PreFilterPlugin[];
  readonly filterPlugins: FilterPlugin[];
  readonly postFilterPlugins: PostFilterPlugin[];
  readonly preScorePlugins: PreScorePlugin[];
  readonly scorePlugins: { plugin: ScorePlugin; weight: number }[];
  readonly reservePlugins: ReservePlugin[];
  readonly permitPlugins: PermitPlugin[];
  readonly preBindPlugins: PreBindPlugin[];
  readonly bindPlugins: BindPlugin[];
  /** Plugin name → the cluster events that may make a pod it rejected schedulable. */
  readonly enqueueExtensions = new Map<string, ClusterEventWithHint[]>();

  constructor(
    readonly schedulerName: string,
    plugins: readonly WeightedPlugin[],
  ) {
    const all = plugins.map((p) => p.plugin);
    this.preFilterPlugins = all.filter((p) => has(p, 'preFilter')) as PreFilterPlugin[];
    this.filterPlugins = all.filter((p) => has(p, 'filter')) as FilterPlugin[];
    this.postFilterPlugins = all.filter((p) => has(p, 'postFilter')) as PostFilterPlugin[];
    this.preScorePlugins = all.filter((p) => has(p, 'preScore')) as PreScorePlugin[];
    this.scorePlugins = plugins.filter((p) => has(p.plugin, 'score')).map((p) => ({ plugin: p.plugin as ScorePlugin, weight: p.weight ?? 1 }));
    this.reservePlugins = all.filter((p) => has(p, 'reserve')) as ReservePlugin[];
    this.permitPlugins = all.filter((p) => has(p, 'permit')) as PermitPlugin[];
    this.preBindPlugins = all.filter((p) => has(p, 'preBind')) as PreBindPlugin[];
    this.bindPlugins = all.filter((p) => has(p, 'bind')) as BindPlugin[];
    for (const p of all) if (p.eventsToRegister) this.enqueueExtensions.set(p.name, p.eventsToRegister());
  }

  /**
   * RunPreFilterPlugins: the first rejection ends the phase; Skip marks the plugin's Filter as skipped; the
   * PreFilterResults (node subsets) are intersected.
   */
  runPreFilterPlugins(state: CycleState, pod: PodInfo, lister: SharedLister): { result?: PreFilterResult; status?: Status; plugins: Set<string> } {
    let result: PreFilterResult | undefined;
    const plugins = new Set<string>();
    for (const pl of this.preFilterPlugins) {
      const r = pl.preFilter(state, pod, lister);
      const s = r.status;
      if (s?.code === Code.Skip) {
        state.skipFilterPlugins.add(pl.name);
        state.activeFilters = undefined;
        continue;
      }
      if (!isSuccess(s)) {
        s!.plugin = pl.name;
        return { status: s, plugins: new Set([pl.name]) };
      }
      if (r.result?.nodeNames) {
        plugins.add(pl.name);
        const names = r.result.nodeNames;
        result = { nodeNames: result?.nodeNames ? new Set([...result.nodeNames].filter((n) => names.has(n))) : new Set(names) };
        if (result.nodeNames!.size === 0) {
          const st = newStatus(Code.UnschedulableAndUnresolvable, `node(s) didn't satisfy plugin(s) [${[...plugins].join(' ')}] simultaneously`);
          return { status: st, plugins };
        }
      }
    }
    return { result, plugins };
  }

  runPreFilterExtensionAddPod(state: CycleState, pod: PodInfo, toAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    for (const pl of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const s = pl.preFilterExtensions?.()?.addPod(state, pod, toAdd, nodeInfo);
      if (!isSuccess(s)) return s;
    }
    return undefined;
  }

  runPreFilterExtensionRemovePod(state: CycleState, pod: PodInfo, toRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    for (const pl of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const s = pl.preFilterExtensions?.()?.removePod(state, pod, toRemove, nodeInfo);
      if (!isSuccess(s)) return s;
    }
    return undefined;
  }

  /** The Filter plugins PreFilter did not skip, in order: worked out once per pod rather than once per node. */
  activeFilterPlugins(state: CycleState): FilterPlugin[] {
    let active = state.activeFilters as FilterPlugin[] | undefined;
    if (!active) state.activeFilters = active = this.filterPlugins.filter((pl) => !state.skipFilterPlugins.has(pl.name));
    return active;
  }

  /** RunFilterPlugins: the first non-success status, tagged with its plugin. */
  runFilterPlugins(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo): Status | undefined {
    return this.runFilterPluginList(state, pod, nodeInfo, this.activeFilterPlugins(state));
  }

  /**
   * RunFilterPlugins over some of the active plugins (in their order): what is left to run once a pre-check has
   * shown that the others return Success for this node.
   */
  runFilterPluginList(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo, active: readonly FilterPlugin[]): Status | undefined {
    for (let i = 0; i < active.length; i++) {
      const pl = active[i];
      const s = pl.filter(state, pod, nodeInfo);
      if (!isSuccess(s)) {
        s!.plugin = pl.name;
        return s;
      }
    }
    return undefined;
  }

  /**
   * RunFilterPluginsWithNominatedPods: pods nominated to the node with at least this pod's priority are counted
   * as if running there (then, if that passes, the node is checked without them too, as upstream does).
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: PodInfo, nodeInfo: NodeInfo, nominated: readonly PodInfo[]): Status | undefined {
    const relevant = nominated.filter((p) => p.uid !== pod.uid && p.priority >= pod.priority);
    if (relevant.length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    const withNominated = nodeInfo.clone();
    const stateWithNominated = state.clone();
    for (const p of relevant) {
      withNominated.addPod(p);
      this.runPreFilterExtensionAddPod(stateWithNominated, pod, p, withNominated);
    }
    const s = this.runFilterPlugins(stateWithNominated, pod, withNominated);
    if (!isSuccess(s)) return s;
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  runPostFilterPlugins(state: CycleState, pod: PodInfo, nodeToStatus: NodeToStatus, lister: SharedLister): { result?: PostFilterResult; status?: Status } {
    const reasons: string[] = [];
    for (const pl of this.postFilterPlugins) {
      const r = pl.postFilter(state, pod, nodeToStatus, lister);
      if (isSuccess(r.status)) return r;
      if (r.status!.code !== Code.Unschedulable) return r;
      reasons.push(...r.status!.reasons);
    }
    return { status: newStatus(Code.Unschedulable, ...reasons) };
  }

  runPreScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], lister: SharedLister): Status | undefined {
    for (const pl of this.preScorePlugins) {
      const s = pl.preScore(state, pod, nodes, lister);
      if (s?.code === Code.Skip) {
        state.skipScorePlugins.add(pl.name);
        continue;
      }
      if (!isSuccess(s)) {
        s!.plugin = pl.name;
        return s;
      }
    }
    return undefined;
  }

  private readonly scorePool: NodeScore[] = [];
  private scratch = new Float64Array(0);
  /** The columns of the last score table: totals then raw scores per plugin, then the normalised bytes. */
  private tableFloats = new Float64Array(0);
  private tableBytes = new Uint8Array(0);

  /** A column to normalise in, reused across plugins and cycles (its values are copied out at once). */
  private scratchColumn(n: number): Float64Array {
    if (this.scratch.length < n) this.scratch = new Float64Array(Math.max(n, 2 * this.scratch.length));
    return this.scratch.length === n ? this.scratch : this.scratch.subarray(0, n);
  }

  /** Room for a score table's float columns and byte columns, grown as needed and reused across cycles. */
  private tableColumns(floats: number, bytes: number): void {
    if (this.tableFloats.length < floats) this.tableFloats = new Float64Array(Math.max(floats, 2 * this.tableFloats.length));
    if (this.tableBytes.length < bytes) this.tableBytes = new Uint8Array(Math.max(bytes, 2 * this.tableBytes.length));
  }

  private nodeScores(n: number): NodeScore[] {
    while (this.scorePool.length < n) this.scorePool.push({ name: '', score: 0 });
    this.scorePool.length = Math.max(this.scorePool.length, n);
    return n === this.scorePool.length ? this.scorePool : this.scorePool.slice(0, n);
  }

  /**
   * RunScorePlugins: score every node per plugin, normalise per plugin, weight and sum. `names` (the nodes'
   * names, in order) is the table's name column when the caller already has it; `rows` the cache's NodeFitRows.
   */
  runScorePlugins(state: CycleState, pod: PodInfo, nodes: readonly NodeInfo[], names: string[] = nodes.map((x) => x.name), rows?: NodeFitRows): ScoreTable {
    const n = nodes.length;
    let count = 0;
    for (const { plugin } of this.scorePlugins) if (!state.skipScorePlugins.has(plugin.name)) count++;
    // Every column is a view of the reused scratch space (totals, raw per plugin; normalised per plugin): no
    // allocation per pod beyond the views.
    this.tableColumns(n * (1 + count), n * count);
    const floats = this.tableFloats;
    const totals = floats.subarray(0, n);
    totals.fill(0);
    const table: ScoreTable = { names, plugins: [], weights: [], raw: [], scores: [], totals };
    let k = 0;
    for (const { plugin, weight } of this.scorePlugins) {
      if (state.skipScorePlugins.has(plugin.name)) continue;
      const raw = floats.subarray(n * (1 + k), n * (2 + k));
      const normalized = this.tableBytes.subarray(n * k, n * (k + 1));
      k++;
      if (plugin.scoreNodes) plugin.scoreNodes(state, pod, nodes, raw, rows);
      else for (let i = 0; i < n; i++) raw[i] = plugin.score(state, pod, nodes[i]);
      if (plugin.normalizeScoreColumn) {
        const column = this.scratchColumn(n);
        column.set(raw);
        plugin.normalizeScoreColumn(state, pod, names, column);
        for (let i = 0; i < n; i++) normalized[i] = checkScore(plugin.name, column[i]);
      } else if (plugin.normalizeScore) {
        // The NodeScore objects are reused across plugins and cycles (normalising is synchronous).
        const list = this.nodeScores(n);
        for (let i = 0; i < n; i++) {
          const ns = list[i];
          ns.name = names[i];
          ns.score = raw[i];
        }
        plugin.normalizeScore(state, pod, list);
        for (let i = 0; i < n; i++) normalized[i] = checkScore(plugin.name, list[i].score);
      } else {
        for (let i = 0; i < n; i++) normalized[i] = checkScore(plugin.name, raw[i]);
      }
      for (let i = 0; i < n; i++) totals[i] += normalized[i] * weight;
      table.plugins.push(plugin.name);
      table.weights.push(weight);
      table.raw.push(raw);
      table.scores.push(normalized);
    }
    return table;
  }

  runReservePluginsReserve(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined {
    for (const pl of this.reservePlugins) {
      const s = pl.reserve(state, pod, nodeName);
      if (!isSuccess(s)) {
        s!.plugin = pl.name;
        return s;
      }
    }
    return undefined;
  }

  /** Unreserve runs in reverse order. */
  runReservePluginsUnreserve(state: CycleState, pod: PodInfo, nodeName: string): void {
    for (let i = this.reservePlugins.length - 1; i >= 0; i--) this.reservePlugins[i].unreserve(state, pod, nodeName);
  }

  runPermitPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined {
    for (const pl of this.permitPlugins) {
      const s = pl.permit(state, pod, nodeName);
      if (!isSuccess(s)) {
        s!.plugin = pl.name;
        return s;
      }
    }
    return undefined;
  }

  /** RunBindPlugins: the first plugin that does not Skip binds. */
  /** RunPreBindPlugins: the first status that is not Success ends the phase. */
  runPreBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined {
    for (const pl of this.preBindPlugins) {
      const s = pl.preBind(state, pod, nodeName);
      if (isSuccess(s)) continue;
      s!.plugin = pl.name;
      return s;
    }
    return undefined;
  }

  runBindPlugins(state: CycleState, pod: PodInfo, nodeName: string): Status | undefined {
    for (const pl of this.bindPlugins) {
      const s = pl.bind(state, pod, nodeName);
      if (s?.code === Code.Skip) continue;
      if (s) s.plugin = pl.name;
      return s;
    }
    return newStatus(Code.Skip);
  }
}
