import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

test('the Ingress sample: ingress-nginx publishes its address, kubectl get ingress shows it in the console', async ({ page }) => {
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached();
  await page.getByRole('combobox', { name: 'Samples' }).selectOption({ label: 'Ingress: one host, two paths to two Services' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(app.applyResults).toContainText('ingress.networking.k8s.io/hello created');

  const { output } = await app.openConsole();
  await app.kubectl('kubectl get ingressclass');
  await expect(output).toContainText(/NAME\s+CONTROLLER\s+PARAMETERS\s+AGE\s*nginx\s+k8s\.io\/ingress-nginx\s+<none>/);
  // The address comes from the simulated ingress-nginx (minikube's node IP): poll until it has written it.
  await expect(async () => {
    await app.kubectl('kubectl get ingress hello');
    await expect(output).toContainText(/hello\s+nginx\s+hello\.example\s+192\.168\.49\.2\s+80\s/, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  // ingress-nginx records the Sync event before it writes the address, so one describe shows both.
  await app.kubectl('kubectl describe ingress hello');
  await expect(output).toContainText(/Normal\s+Sync\s+.*nginx-ingress-controller\s+Scheduled for sync/);
  expect(app.errors).toEqual([]);
});
