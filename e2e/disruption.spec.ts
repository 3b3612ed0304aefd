import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

const deployment = { kind: 'Deployment', name: 'web', namespace: 'default' };

test('the PodDisruptionBudget sample: drain evicts one pod at a time, retrying while the budget allows none', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached();
  await app.setSpeed(50);
  await page.getByRole('combobox', { name: 'Samples' }).selectOption({ label: 'PodDisruptionBudget + drain' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(app.applyResults).toContainText('deployment.apps/web created');
  await expect(app.applyResults).toContainText('poddisruptionbudget.policy/web-pdb created');
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('4/4', { timeout: 60_000 });

  // minAvailable 3 of 4 healthy pods: one disruption allowed.
  const { output } = await app.openConsole();
  await expect(async () => {
    await app.kubectl('kubectl get pdb web-pdb');
    await expect(output).toContainText(/web-pdb\s+3\s+N\/A\s+1\s/, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });

  // Four pods on three nodes: find a node holding two of them in kubectl's own listing.
  const nodesOfPods = async (): Promise<Map<string, number>> => {
    const line = 'kubectl get pods -l app=web -o wide --no-headers';
    await app.kubectl(line);
    const perNode = new Map<string, number>();
    await expect(async () => {
      const transcript = await output.innerText();
      const listing = transcript.slice(transcript.lastIndexOf(line) + line.length);
      perNode.clear();
      for (const [, node] of listing.matchAll(/^web-\S+\s+1\/1\s+Running\s+0\s+\S+\s+\S+\s+(node-\d+)\s/gm)) perNode.set(node, (perNode.get(node) ?? 0) + 1);
      expect([...perNode.values()].reduce((a, b) => a + b, 0)).toBe(4);
    }).toPass({ timeout: 5_000 });
    return perNode;
  };
  const node = [...(await nodesOfPods())].filter(([, count]) => count >= 2).map(([name]) => name).sort()[0];
  expect(node).toBeDefined();

  // The second eviction is refused until a replacement elsewhere is ready; then the node is drained.
  await app.kubectl(`kubectl drain ${node} --ignore-daemonsets --delete-emptydir-data`);
  await expect(output).toContainText(`node/${node} cordoned`);
  await expect(output).toContainText(/error when evicting pods\/"web-[a-z0-9]+-[a-z0-9]+" -n "default" \(will retry after 5s\): Cannot evict pod as it would violate the pod's disruption budget\./, { timeout: 60_000 });
  await expect(output).toContainText(`node/${node} drained`, { timeout: 60_000 });
  // All four Running again, none of them on the drained node.
  await expect(async () => expect((await nodesOfPods()).has(node)).toBe(false)).toPass({ timeout: 60_000 });
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('4/4', { timeout: 60_000 });
  expect(app.errors).toEqual([]);
});
