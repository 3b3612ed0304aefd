import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

const pod = { kind: 'Pod', name: 'writer', namespace: 'default' };

test('the storage sample: the claim is provisioned and Bound, its volume attached, and the pod Running', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached();
  await app.setSpeed(50);
  await page.getByRole('combobox', { name: 'Samples' }).selectOption({ label: 'PersistentVolumeClaim and a Pod writing to it' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(app.applyResults).toContainText('persistentvolumeclaim/data created');
  await expect(app.applyResults).toContainText('pod/writer created');
  await expect(app.cellOf(app.row(pod), 'Status')).toHaveText('Running', { timeout: 60_000 });

  const { output } = await app.openConsole();
  await app.kubectl('kubectl get pvc data');
  await expect(output).toContainText(/data\s+Bound\s+pvc-[0-9a-f-]+\s+1Gi\s+RWO\s+standard\s/);
  await app.kubectl('kubectl get volumeattachments');
  await expect(output).toContainText(/csi-[0-9a-f]{64}\s+hostpath\.csi\.kubeplay\.io\s+pvc-[0-9a-f-]+\s+\S+\s+true\s/);
  await app.kubectl('kubectl describe pod writer');
  await expect(output).toContainText(/SuccessfulAttachVolume\s+.*AttachVolume\.Attach succeeded for volume "pvc-[0-9a-f-]+"/);

  // The attach/detach step per node: the Nodes view lists the volume on the node that holds the pod.
  await page.getByRole('tab', { name: 'Nodes' }).click();
  await expect(page.getByRole('list', { name: /^Volumes of node-\d$/ })).toContainText(/pvc-[0-9a-f-]+ \(attached, in use\)/, { timeout: 60_000 });
  expect(app.errors).toEqual([]);
});
