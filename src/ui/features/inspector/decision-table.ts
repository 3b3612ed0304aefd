// One scheduling attempt as a table with a column per node: the Filter row says which plugin rejected the node
// and why, then a row per Score plugin (normalised score × weight), then the weighted total; the chosen node marked.
import type { NodeDecisionView, SchedulingDecisionView } from '../../../shared/protocol/introspection';

export interface DecisionColumn {
  node: string;
  chosen: boolean;
  filtered: boolean;
}

export interface DecisionRow {
  /** "Filter", a plugin name, or "Total". */
  label: string;
  /** The plugin's weight, for score rows. */
  weight?: number;
  cells: string[];
}

export interface DecisionTable {
  columns: DecisionColumn[];
  rows: DecisionRow[];
}

function filterCell(n: NodeDecisionView): string {
  if (!n.filtered) return 'passed';
  const reasons = n.filtered.reasons.length ? n.filtered.reasons.join('; ') : n.filtered.code;
  return `${n.filtered.plugin}: ${reasons}`;
}

export function decisionTable(decision: SchedulingDecisionView): DecisionTable {
  const columns = decision.nodes.map((n) => ({ node: n.node, chosen: !!n.chosen, filtered: !!n.filtered }));
  // Score plugins in the order the first scored node lists them (the profile's order), then any others.
  const plugins: { plugin: string; weight: number }[] = [];
  for (const n of decision.nodes) {
    for (const s of n.scores ?? []) if (!plugins.some((p) => p.plugin === s.plugin)) plugins.push({ plugin: s.plugin, weight: s.weight });
  }
  const rows: DecisionRow[] = [{ label: 'Filter', cells: decision.nodes.map(filterCell) }];
  for (const { plugin, weight } of plugins) {
    rows.push({
      label: plugin,
      weight,
      cells: decision.nodes.map((n) => {
        const s = n.scores?.find((x) => x.plugin === plugin);
        return s ? String(s.score) : '–';
      }),
    });
  }
  if (plugins.length || decision.nodes.some((n) => n.total !== undefined)) {
    rows.push({ label: 'Total', cells: decision.nodes.map((n) => (n.total === undefined ? '–' : String(n.total))) });
  }
  return { columns, rows };
}

/** The attempt in one sentence: "Scheduled on node-2: 3 of 3 nodes feasible" or the FailedScheduling message. */
export function decisionSummary(d: SchedulingDecisionView): string {
  const counts = `${d.feasibleNodes} of ${d.numAllNodes} node${d.numAllNodes === 1 ? '' : 's'} feasible${d.evaluatedNodes < d.numAllNodes ? ` (${d.evaluatedNodes} evaluated)` : ''}`;
  switch (d.result) {
    case 'Scheduled': {
      const binding = d.bound === false ? `, binding failed${d.message ? `: ${d.message}` : ''}` : d.bound === undefined ? ', binding pending' : '';
      return `Scheduled on ${d.node ?? '?'}: ${counts}${binding}`;
    }
    case 'Unschedulable':
      return `Unschedulable: ${d.message ?? counts}${d.nominatedNode ? ` (nominated ${d.nominatedNode})` : ''}`;
    default:
      return `Error: ${d.message ?? 'scheduling failed'}`;
  }
}
