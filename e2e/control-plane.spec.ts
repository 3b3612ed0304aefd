import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { samples } from '../src/ui/features/editor/samples';

const nginx = samples.find((s) => s.id === 'nginx-deployment')!.manifest;
const stages = ['Authentication', 'Authorization', 'Decode', 'Mutating admission', 'Validation', 'Validating admission'];

test('the Control plane graph shows the components, the requests of an apply and what a patch changed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  const graph = await app.showControlPlane();
  const apiserver = graph.getByRole('group', { name: 'API server' });
  const stageList = apiserver.getByRole('list', { name: 'API server stages' });
  for (const stage of stages) await expect(stageList.getByRole('listitem').filter({ hasText: stage })).toBeVisible();
  await expect(apiserver).toContainText('serving');
  await expect(graph.getByRole('group', { name: 'etcd' })).toContainText(/revision \d+/);
  await expect(graph.getByRole('group', { name: /^kubelet on node-\d$/ })).toHaveCount(3);
  for (const node of ['node-1', 'node-2', 'node-3']) await expect(graph.getByRole('group', { name: `kubelet on ${node}` })).toContainText('running');
  await expect(graph.getByRole('group', { name: 'kube-controller-manager' })).toContainText(/informers \d+\/\d+ synced/);
  await expect(graph.getByRole('group', { name: 'deployment-controller' })).toContainText(/queue \d+/);
  const user = graph.getByRole('group', { name: /^User / });
  await expect(user).toContainText('kubernetes-admin');

  await app.setSpeed(10);
  await app.apply(nginx);
  // The user's create travels as a token named for it (it exists only while it travels).
  await expect(graph.getByRole('button', { name: 'create deployments/nginx by kubernetes-admin' })).toBeAttached();
  await expect(app.applyResults).toHaveText('deployment.apps/nginx created');
  // The scheduler's last decision: an nginx pod onto a node; the kubelets now run pods.
  await expect(graph.getByRole('group', { name: 'kube-scheduler' })).toContainText(/default\/nginx-[\w-]+ → node-\d/, { timeout: 60_000 });
  await expect(graph.getByRole('group', { name: 'kube-controller-manager' }).getByRole('group', { name: 'replicaset-controller' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('control-plane-graph.png') });

  // A patch: the recent requests list (the user's only) opens its details, with what changed.
  await app.apply(nginx.replace('replicas: 3', 'replicas: 2'));
  await expect(app.applyResults).toHaveText('deployment.apps/nginx configured');
  await page.getByRole('button', { name: "Only the user's" }).click();
  const recent = page.getByRole('list', { name: 'Recent API requests' });
  await recent.getByRole('button', { name: /patch deployments\/nginx by kubernetes-admin -n default → 200/ }).click();
  const details = page.getByRole('complementary', { name: 'Token details' });
  await expect(details.getByRole('heading')).toHaveText('patch deployments/nginx by kubernetes-admin');
  await expect(details.getByRole('list', { name: 'What changed' })).toContainText('spec.replicas: 3 → 2');
  await page.screenshot({ path: test.info().outputPath('control-plane-details.png') });

  // The create: its details, and the object opens in the inspector.
  await recent.getByRole('button', { name: /create deployments\/nginx by kubernetes-admin -n default → 201/ }).click();
  await expect(details.getByRole('heading')).toHaveText('create deployments/nginx by kubernetes-admin');
  await expect(details).toContainText(/Created at revision \d+/);
  await details.getByRole('button', { name: 'Show deployment/nginx in default in the inspector' }).click();
  await expect(page.getByRole('complementary', { name: 'Inspector' }).getByLabel('YAML of deployment/nginx')).toContainText('kind: Deployment');
  await details.getByRole('button', { name: 'Close details' }).click();
  await expect(details).toHaveCount(0);
  expect(app.errors).toEqual([]);
});

test('a refused apply stops at the stage that refused it, in red, with the message', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  const graph = await app.showControlPlane();
  await app.apply(nginx.replace('  replicas: 3', '  replica: 3'));
  await expect(app.applyResults).toContainText('strict decoding error: unknown field "spec.replica"');
  const apiserver = graph.getByRole('group', { name: 'API server' });
  const refusal = apiserver.getByRole('group', { name: 'Last refusal' });
  await expect(refusal).toContainText('Refused at decode');
  await expect(refusal).toContainText('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');
  await expect(apiserver.getByRole('listitem').filter({ hasText: 'Decode' })).toHaveAttribute('data-refused', 'true');
  // The request's token waits at the Decode stage; clicking it shows the stages it passed and the refusal.
  const token = graph.getByRole('button', { name: 'create deployments/nginx by kubernetes-admin, refused at decode' });
  await token.click();
  const details = page.getByRole('complementary', { name: 'Token details' });
  await expect(details.getByRole('list', { name: 'Stages' })).toContainText('✓ authentication');
  await expect(details.getByRole('list', { name: 'Stages' })).toContainText('✗ decode');
  await expect(details).toContainText('400 BadRequest');
  await page.screenshot({ path: test.info().outputPath('control-plane-refusal.png') });
  await expect(page.getByRole('list', { name: 'Recent API requests' })).toContainText('refused at decode');
  expect(app.errors).toEqual([]);
});

test('a stopped API server, a killed node and a partitioned one show on their components', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  await app.showView('Nodes');
  await page.getByRole('button', { name: 'Kill node-2' }).click();
  await page.getByRole('button', { name: 'Partition node-3' }).click();
  await expect(page.getByRole('button', { name: 'Heal node-3' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop API server' }).click();
  const graph = await app.showControlPlane();
  await expect(graph.getByRole('group', { name: 'API server' })).toContainText('stopped');
  await expect(graph.getByRole('group', { name: 'API server' })).toContainText('Stopped: requests and watches get no answer.');
  await expect(graph.getByRole('group', { name: 'kubelet on node-1' })).toContainText('running');
  await expect(graph.getByRole('group', { name: 'kubelet on node-2' })).toContainText('killed');
  await expect(graph.getByRole('group', { name: 'kubelet on node-3' })).toContainText('partitioned');
  await page.screenshot({ path: test.info().outputPath('control-plane-faults.png') });
  await app.showView('Nodes');
  await page.getByRole('button', { name: 'Start API server' }).click();
  await app.showView('Control plane');
  await expect(graph.getByRole('group', { name: 'API server' })).toContainText('serving');
});
