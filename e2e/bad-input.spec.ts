import { expect, test, type Page } from '@playwright/test';
import { Playground } from './models/playground';

// Issue 9, item 1: pasting a bad manifest and pressing Apply shows the real error, keeps the buffer exactly as
// pasted, and creates nothing.

// Monaco arrives in its own chunk after the first paint; on a loaded machine that takes a while.
test.slow();
// Monaco draws only the lines in view; a tall window keeps every line of these short manifests on screen even
// when the result list below the editor grows.
test.use({ viewport: { width: 1280, height: 1100 } });

async function open(page: Page): Promise<Playground> {
  const app = await new Playground(page).goto();
  await expect(app.editor).toBeAttached({ timeout: 60_000 });
  return app;
}

/** The editor's text as Monaco draws it (short manifests: every line is on screen). */
async function editorText(page: Page): Promise<string> {
  const lines = await page.locator('.monaco-editor .view-lines .view-line').evaluateAll((els) =>
    els
      .map((el) => ({ top: parseFloat((el as HTMLElement).style.top) || 0, text: (el.textContent ?? '').replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text),
  );
  return lines.join('\n').replace(/\n+$/, '');
}

const deployment = (kind: string, matchLabel: string) => `apiVersion: apps/v1
kind: ${kind}
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels:
      app: ${matchLabel}
  template:
    metadata:
      labels:
        app: ${matchLabel}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27`;

const cases: { name: string; manifest: string; result: string | RegExp; absent: { kind: string; name: string } }[] = [
  {
    name: 'an unknown kind',
    manifest: deployment('Deploymnt', 'web'),
    result: /^error: resource mapping not found for name: "web" namespace: "" from "editor": no matches for kind "Deploymnt" in version "apps\/v1"\s+ensure CRDs are installed first$/,
    absent: { kind: 'Deployment', name: 'web' },
  },
  {
    name: 'an invalid name',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: My_Config\ndata:\n  color: blue',
    result:
      "Error from server (Invalid): ConfigMap \"My_Config\" is invalid: metadata.name: Invalid value: \"My_Config\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    absent: { kind: 'ConfigMap', name: 'My_Config' },
  },
  {
    name: 'tab indentation',
    manifest: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tabbed',
    result: /^error: document 1: error parsing manifest at line 4, column 1: Tabs are not allowed as indentation \(nothing was applied\)$/,
    absent: { kind: 'ConfigMap', name: 'tabbed' },
  },
  {
    name: 'a Secret whose data is not base64',
    manifest: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: creds\ndata:\n  password: "hunter2!"',
    result: 'Error from server (BadRequest): Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 7',
    absent: { kind: 'Secret', name: 'creds' },
  },
];

for (const c of cases) {
  test(`${c.name}: the real error, the buffer kept, nothing created`, async ({ page }) => {
    const app = await open(page);
    await app.apply(c.manifest);
    await expect(app.applyResults.getByRole('listitem')).toHaveText([c.result]);
    // Monaco draws a tab as two spaces (its tabSize); the error above shows the tab is still in the buffer.
    expect(await editorText(page)).toBe(c.manifest.replace(/\t/g, '  '));
    await expect(app.row({ ...c.absent, namespace: 'default' })).toHaveCount(0);
    expect(app.errors).toEqual([]);
  });
}

test('changing a Deployment selector is refused as immutable and the Deployment keeps its selector', async ({ page }) => {
  const app = await open(page);
  await app.apply(deployment('Deployment', 'web'));
  await expect(app.applyResults).toHaveText('deployment.apps/web created');
  const changed = deployment('Deployment', 'web2');
  await app.apply(changed);
  await expect(app.applyResults.getByRole('listitem')).toHaveText([
    'Error from server (Invalid): Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable',
  ]);
  expect(await editorText(page)).toBe(changed);
  // Still the first one: applying the original again changes nothing.
  await app.apply(deployment('Deployment', 'web'));
  await expect(app.applyResults).toHaveText('deployment.apps/web unchanged');
  expect(app.errors).toEqual([]);
});

test('a paste of only comments and empty documents says there is nothing to apply', async ({ page }) => {
  const app = await open(page);
  const manifest = '---\n# nothing here yet\n---';
  await app.apply(manifest);
  await expect(app.applyResults.getByRole('listitem')).toHaveText(['error: no objects passed to apply']);
  expect(await editorText(page)).toBe(manifest);
  expect(app.errors).toEqual([]);
});
