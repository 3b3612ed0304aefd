import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

const pod = { kind: 'Pod', name: 'config-demo', namespace: 'default' };

// A pod taking its environment from the ConfigMap, created after the ConfigMap is gone.
const orphan = `apiVersion: v1
kind: Pod
metadata:
  name: needs-config
spec:
  containers:
  - name: app
    image: busybox:1.36
    command: ["sleep", "3600"]
    envFrom:
    - configMapRef:
        name: special-config
`;

test('the configuration sample: the container sees the ConfigMap and Secret as env and files; without the ConfigMap a new pod cannot start', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 900 });
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached();
  await app.setSpeed(50);
  await page.getByRole('combobox', { name: 'Samples' }).selectOption({ label: 'ConfigMap and Secret as env and files' });
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  await expect(app.applyResults).toContainText('configmap/special-config created');
  await expect(app.applyResults).toContainText('secret/test-secret created');
  await expect(app.applyResults).toContainText('pod/config-demo created');
  await expect(app.cellOf(app.row(pod), 'Status')).toHaveText('Running', { timeout: 60_000 });

  const { output } = await app.openConsole();
  await app.kubectl('kubectl exec config-demo -- cat /etc/config/SPECIAL_LEVEL');
  // The transcript's entries follow each other: the command, then what cat printed.
  await expect(output).toContainText(/kubectl exec config-demo -- cat \/etc\/config\/SPECIAL_LEVEL\s*very/);
  await app.kubectl('kubectl exec config-demo -- cat /etc/secret-volume/username');
  await expect(output).toContainText(/cat \/etc\/secret-volume\/username\s*my-app/);
  await app.kubectl('kubectl exec config-demo -- env');
  await expect(output).toContainText('SPECIAL_LEVEL=very');
  await expect(output).toContainText('SPECIAL_TYPE=charm');
  await expect(output).toContainText('SECRET_USERNAME=my-app');

  // Delete the ConfigMap, then create a pod that takes its env from it: the kubelet cannot make its container.
  await app.kubectl('kubectl delete configmap special-config');
  await expect(output).toContainText('configmap "special-config" deleted');
  await app.apply(orphan);
  await expect(app.applyResults).toContainText('pod/needs-config created');
  await expect(async () => {
    await app.kubectl('kubectl get pod needs-config');
    await expect(output).toContainText(/needs-config\s+0\/1\s+CreateContainerConfigError\s+0\s/, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await app.kubectl('kubectl describe pod needs-config');
  await expect(output).toContainText(/Failed\s+.*Error: configmap "special-config" not found/);
  expect(app.errors).toEqual([]);
});
