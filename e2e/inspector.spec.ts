import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { samples } from '../src/ui/features/editor/samples';

const nginx = samples.find((s) => s.id === 'nginx-deployment')!.manifest;
const deployment = { kind: 'Deployment', name: 'nginx', namespace: 'default' };

test('the inspector explains the nginx Deployment and its pods, edits it and deletes it in the foreground', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(nginx);
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('3/3', { timeout: 60_000 });

  // Select the Deployment in the Objects table.
  await page.getByRole('button', { name: 'Inspect deployment/nginx in default', exact: true }).click();
  const inspector = app.inspector;
  await expect(inspector.getByRole('heading', { name: 'Deployment/nginx' })).toBeVisible();
  await expect(inspector.getByText('3/3 ready')).toBeVisible();

  // Summary: the conditions.
  const summary = await app.inspectorSection('Summary');
  const conditions = summary.getByRole('table', { name: 'Conditions of deployment/nginx' });
  await expect(conditions.getByRole('row', { name: /^Available True MinimumReplicasAvailable Deployment has minimum availability\./ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('inspector-summary.png') });

  // Events, as kubectl describe lists them.
  const events = (await app.inspectorSection('Events')).getByRole('table', { name: 'Events of deployment/nginx' });
  await expect(events.getByRole('row', { name: /^Normal ScalingReplicaSet \S+ deployment-controller Scaled up replica set nginx-[a-z0-9]+ from 0 to 3$/ })).toBeVisible();

  // Relations: no owner, the ReplicaSet as dependent.
  const relations = await app.inspectorSection('Relations');
  await expect(relations.getByText('No owner: deployment/nginx is a root')).toBeVisible();
  const replicaSets = relations.getByRole('list', { name: 'ReplicaSet dependents of deployment/nginx' }).getByRole('button');
  await expect(replicaSets).toHaveCount(1);
  await expect(replicaSets).toHaveText(/^ReplicaSet nginx-[a-z0-9]+ \(3\/3\)$/);

  // Why: the chain starts with the user's create.
  const why = (await app.inspectorSection('Why')).getByRole('list', { name: 'Why deployment/nginx exists, root cause first' });
  await expect(why.getByRole('listitem').first()).toContainText('kubernetes-admin created deployments/nginx in default');

  // Follow the ReplicaSet to one of its pods, and see the scheduler's decision per node.
  await (await app.inspectorSection('Relations')).getByRole('list', { name: 'ReplicaSet dependents of deployment/nginx' }).getByRole('button').click();
  await expect(inspector.getByRole('heading', { name: /^ReplicaSet\/nginx-/ })).toBeVisible();
  const rsRelations = await app.inspectorSection('Relations');
  await expect(rsRelations.getByRole('list', { name: /^Owners of replicaset\/nginx-/ }).getByRole('button', { name: 'Deployment nginx (3/3)' })).toBeVisible();
  const pods = rsRelations.getByRole('list', { name: /^Pod dependents of replicaset\/nginx-/ }).getByRole('button');
  await expect(pods).toHaveCount(3);
  await pods.first().click();
  await expect(inspector.getByRole('heading', { name: /^Pod\/nginx-/ })).toBeVisible();
  const scheduling = await app.inspectorSection('Scheduling');
  const decision = scheduling.getByRole('table', { name: /^Scheduling decision for default\/nginx-/ });
  for (const node of ['node-1', 'node-2', 'node-3']) await expect(decision.getByRole('columnheader', { name: new RegExp(`^${node}`) })).toBeVisible();
  const chosen = decision.getByRole('columnheader', { name: /\(chosen\)$/ });
  await expect(chosen).toHaveCount(1);
  await expect(scheduling.getByText(/^Bound to node-\d\.$/)).toHaveText(`Bound to ${(await chosen.innerText()).replace(' (chosen)', '')}.`);
  await expect(decision.getByRole('row', { name: /^Filter passed passed passed$/ })).toBeVisible();
  await expect(decision.getByRole('row', { name: /^Total / })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('inspector-scheduling.png') });
  const podWhy = (await app.inspectorSection('Why')).getByRole('list', { name: /^Why pod\/nginx-.* exists, root cause first$/ });
  await expect(podWhy.getByRole('listitem').first()).toContainText('kubernetes-admin created deployments/nginx in default');
  await expect(podWhy.getByRole('listitem').last()).toContainText(/replicaset-controller created pods\/nginx-/);
  await page.screenshot({ path: test.info().outputPath('inspector-why.png') });

  // Back to the Deployment (the pod's owner chain), edit replicas to 2 and apply.
  await (await app.inspectorSection('Relations')).getByRole('button', { name: 'Deployment nginx (3/3)' }).click();
  await inspector.getByRole('button', { name: 'Edit', exact: true }).click();
  const editor = inspector.getByRole('textbox', { name: 'Edit YAML of deployment/nginx' });
  const text = await editor.inputValue();
  expect(text).not.toContain('managedFields');
  await editor.fill(text.replace('replicas: 3', 'replicas: 2'));
  await inspector.getByRole('button', { name: 'Apply changes' }).click();
  const output = inspector.getByRole('log', { name: 'Inspector output' });
  await expect(output).toHaveText('deployment.apps/nginx edited');
  await expect(inspector.getByText('2/2 ready')).toBeVisible({ timeout: 60_000 });
  await expect(app.cellOf(app.row(deployment), 'Status')).toHaveText('2/2');
  await expect(app.rowsNamed('Pod', 'nginx-')).toHaveCount(2, { timeout: 60_000 });

  // Delete in the foreground: the dialog, then gone with its dependents.
  await inspector.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete deployment.apps/nginx' });
  await expect(dialog.getByRole('radio', { name: /^Background \(default\)/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /^Foreground/ }).check();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(output).toHaveText('deployment.apps "nginx" deleted');
  await expect(inspector.getByText('default/nginx no longer exists.')).toBeVisible({ timeout: 60_000 });
  await expect(app.row(deployment)).toHaveCount(0);
  await expect(app.rowsNamed('ReplicaSet', 'nginx-')).toHaveCount(0);
  await expect(app.rowsNamed('Pod', 'nginx-')).toHaveCount(0, { timeout: 60_000 });
  await page.screenshot({ path: test.info().outputPath('inspector.png') });
  expect(app.errors).toEqual([]);
});

test('a stale edit is refused with the API server’s 409 text, shown inline', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  greeting: hello\n');
  await expect(app.applyResults).toHaveText('configmap/demo created');
  await page.getByRole('button', { name: 'Inspect configmap/demo in default', exact: true }).click();
  const inspector = app.inspector;
  await inspector.getByRole('button', { name: 'Edit', exact: true }).click();
  const editor = inspector.getByRole('textbox', { name: 'Edit YAML of configmap/demo' });
  const text = await editor.inputValue();
  // Someone else changes it meanwhile (here: the editor's Apply).
  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\ndata:\n  greeting: hi\n');
  await expect(app.applyResults).toHaveText('configmap/demo configured');
  await expect(inspector.getByText(/changed since you started editing/)).toBeVisible();
  await editor.fill(text.replace('greeting: hello', 'greeting: bonjour'));
  await inspector.getByRole('button', { name: 'Apply changes' }).click();
  await expect(inspector.getByRole('log', { name: 'Inspector output' })).toHaveText(
    'Error from server (Conflict): Operation cannot be fulfilled on configmaps "demo": the object has been modified; please apply your changes to the latest version and try again',
  );
  expect(app.errors).toEqual([]);
});

test('an unschedulable pod shows why each node was filtered out and the FailedScheduling message', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await new Playground(page).goto();
  await app.apply(samples.find((s) => s.id === 'unschedulable-pod')!.manifest);
  await expect(app.applyResults).toHaveText('pod/too-big created');
  await page.getByRole('button', { name: 'Inspect pod/too-big in default', exact: true }).click();
  const scheduling = await app.inspectorSection('Scheduling');
  await expect(scheduling.getByText('Not bound to a node yet.')).toBeVisible();
  // The latest attempt's FailedScheduling message.
  await expect(scheduling.getByText(/attempt \d+: Unschedulable: 0\/3 nodes are available: 3 Insufficient cpu\./)).toBeVisible();
  const decision = scheduling.getByRole('table', { name: 'Scheduling decision for default/too-big' });
  await expect(decision.getByRole('row', { name: /^Filter / })).toHaveText(/Filter(NodeResourcesFit: Insufficient cpu){3}/);
  await expect(decision.getByRole('columnheader', { name: /\(chosen\)/ })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('inspector-unschedulable.png') });
  // Deleting it from the inspector with the default (Background) policy and no grace period.
  await app.inspector.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete pod/too-big' });
  await dialog.getByRole('textbox', { name: 'Grace period (seconds)' }).fill('0');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(app.inspector.getByRole('log', { name: 'Inspector output' })).toHaveText('pod "too-big" deleted');
  await expect(app.row({ kind: 'Pod', name: 'too-big', namespace: 'default' })).toHaveCount(0);
  expect(app.errors).toEqual([]);
});
