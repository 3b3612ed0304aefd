import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionSummary, decisionTable } from './decision-table';
import type { Fixture } from './headless.fixture';
import { keysNamed, nginxFixture } from './headless.fixture';

let f: Fixture;
beforeAll(async () => {
  f = await nginxFixture();
});
afterAll(async () => {
  await f.h.close();
});

describe('the scheduler’s per-node decision as a table', () => {
  it('a scheduled nginx pod: every node passed the filters, a row per score plugin, the totals, the chosen node', () => {
    const [podKey] = keysNamed(f.store, '/pods', 'nginx-');
    const pod = f.get('/pods', podKey) as { spec?: { nodeName?: string } } & ReturnType<typeof f.get>;
    const [decision] = f.h.cluster.scheduler!.decisions(podKey);
    const table = decisionTable(decision);
    expect(table.columns.map((c) => c.node)).toEqual(['node-1', 'node-2', 'node-3']);
    expect(table.columns.filter((c) => c.chosen).map((c) => c.node)).toEqual([pod.spec?.nodeName]);
    expect(table.rows[0]).toEqual({ label: 'Filter', cells: ['passed', 'passed', 'passed'] });
    const labels = table.rows.map((r) => r.label);
    expect(labels).toContain('TaintToleration');
    expect(labels).toContain('NodeResourcesFit');
    expect(labels.at(-1)).toBe('Total');
    expect(table.rows.find((r) => r.label === 'TaintToleration')?.weight).toBe(3);
    // Each total is Σ score × weight over the plugin rows.
    const scoreRows = table.rows.filter((r) => r.weight !== undefined);
    table.columns.forEach((_, i) => {
      expect(Number(table.rows.at(-1)!.cells[i])).toBe(scoreRows.reduce((sum, r) => sum + Number(r.cells[i]) * r.weight!, 0));
    });
    expect(decisionSummary(decision)).toBe(`Scheduled on ${pod.spec?.nodeName}: 3 of 3 nodes feasible`);
  });

  it('an unschedulable pod: each node filtered by NodeResourcesFit, no scores, the FailedScheduling message', async () => {
    await f.h.client.call('api/apply', {
      manifest: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: huge\nspec:\n  containers:\n  - name: c\n    image: nginx\n    resources:\n      requests:\n        cpu: "100"\n',
    });
    f.h.cluster.advance(5_000);
    const decisions = f.h.cluster.scheduler!.decisions('default/huge');
    const decision = decisions.at(-1)!;
    const table = decisionTable(decision);
    expect(table.rows.map((r) => r.label)).toEqual(['Filter']);
    expect(table.rows[0].cells).toEqual(['NodeResourcesFit: Insufficient cpu', 'NodeResourcesFit: Insufficient cpu', 'NodeResourcesFit: Insufficient cpu']);
    expect(table.columns.every((c) => c.filtered && !c.chosen)).toBe(true);
    expect(decisionSummary(decision)).toMatch(/^Unschedulable: 0\/3 nodes are available: 3 Insufficient cpu\./);
  });
});
