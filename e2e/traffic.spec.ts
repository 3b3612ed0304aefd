import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';
import { samples } from '../src/ui/features/editor/samples';

// The gallery's "Service traffic + NetworkPolicy": nginx behind Service web, Pod client, and a policy that lets only
// role=client into the web pods.
const sample = samples.find((s) => s.id === 'service-traffic-networkpolicy')!.manifest;
// The same policy flipped: no pod has role=admin, so the client is dropped too.
const flipped = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web-allow-client
spec:
  podSelector:
    matchLabels:
      app: web
  policyTypes:
  - Ingress
  ingress:
  - from:
    - podSelector:
        matchLabels:
          role: admin
    ports:
    - port: http
`;

test('Send traffic to a Service: nginx answers the client pod; a NetworkPolicy drops outside traffic, then the client', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(sample);
  await expect(app.applyResults).toContainText('networkpolicy.networking.k8s.io/web-allow-client created');

  const graph = await app.showObjectsGraph();
  await expect(graph.getByRole('button', { name: 'Deployment web, 2/2', exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(graph.getByRole('button', { name: 'Pod client, Running', exact: true })).toBeVisible({ timeout: 60_000 });

  // The Service's inspector opens the panel with its cluster DNS name.
  await graph.getByRole('button', { name: /^Service web\b/ }).click();
  await page.getByRole('complementary', { name: 'Inspector' }).getByRole('button', { name: 'Send traffic', exact: true }).click();
  const panel = page.getByRole('dialog', { name: 'Send traffic' });
  await expect(panel.getByRole('textbox', { name: 'URL' })).toHaveValue('http://web.default.svc.cluster.local:80/');
  const result = panel.getByRole('region', { name: 'Traffic result' });

  await panel.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Pod default/client' });
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result.getByLabel('Response body')).toContainText('Welcome to nginx!');
  await expect(result.getByRole('list', { name: 'Hops' })).toContainText('web');
  await page.screenshot({ path: test.info().outputPath('traffic-welcome.png') });

  // From outside the cluster the policy's isolation drops it.
  await panel.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Outside the cluster' });
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result).toContainText('No response');
  await expect(result.getByRole('list', { name: 'Hops' })).toContainText('(stopped here)');
  await page.screenshot({ path: test.info().outputPath('traffic-dropped.png') });

  // Flip the policy: now the client is dropped too.
  await app.apply(flipped);
  await expect(app.applyResults).toContainText('networkpolicy.networking.k8s.io/web-allow-client configured');
  await panel.getByRole('combobox', { name: 'From' }).selectOption({ label: 'Pod default/client' });
  await panel.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result).toContainText('No response');
  await expect(result.getByLabel('Response body')).toHaveCount(0);
});
