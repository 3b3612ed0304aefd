import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

// nginx behind a Service and a busybox pod to call it from: what `kubectl exec … -- wget` prints in the console.
const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: hello
spec:
  replicas: 2
  selector:
    matchLabels:
      app: hello
  template:
    metadata:
      labels:
        app: hello
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: hello
spec:
  selector:
    app: hello
  ports:
  - port: 80
---
apiVersion: v1
kind: Pod
metadata:
  name: shell
spec:
  containers:
  - name: box
    image: busybox:1.36
    command: ["sleep", "3600"]
`;

test('kubectl exec -- wget in the console fetches nginx through the Service; nslookup and curl answer as in busybox', async ({ page }) => {
  const app = await new Playground(page).goto();
  await app.setSpeed(50);
  await app.apply(manifest);
  await expect(app.applyResults).toContainText('pod/shell created');
  const { output } = await app.openConsole();

  await expect(async () => {
    await app.kubectl('kubectl get deploy hello --no-headers');
    await expect(output).toContainText(/hello\s+2\/2/, { timeout: 1000 });
    await app.kubectl('kubectl get pod shell --no-headers');
    await expect(output).toContainText(/shell\s+1\/1\s+Running/, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });

  await app.kubectl('kubectl exec shell -- wget -qO- http://hello');
  await expect(output).toContainText('<title>Welcome to nginx!</title>');
  await expect(output).toContainText('Thank you for using nginx.');

  await app.kubectl('kubectl exec shell -- nslookup hello');
  await expect(output).toContainText('Name:\thello.default.svc.cluster.local'.replace('\t', ' '));

  await app.kubectl('kubectl exec shell -- curl http://hello');
  await expect(output).toContainText('exec: "curl": executable file not found in $PATH: unknown');

  expect(app.errors).toEqual([]);
});
