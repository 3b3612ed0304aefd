import { expect, test, type Page } from '@playwright/test';
import { Playground } from './models/playground';

// Hostile object data (issue 9): HTML, script, javascript: URLs, an RTL override and a megabyte-long string in
// annotations, ConfigMap data, an event's message, container args and an image name render as text in every view,
// inspector section and the console, under the page's Content-Security-Policy (index.html). The spec fails on any
// dialog, page error, console error or CSP violation (reported in the page or, as console errors, in a worker).

const img = '<img src=x onerror=alert(1)>';
const script = '<script>alert(2)</script>';
const jsUrl = 'javascript:alert(3)';
const rtl = 'evil\u202Egnp.exe';
/** ~1 MB of markup in one ConfigMap value (the ConfigMap size limit is 1 MiB). */
const megabyte = '<b onmouseover=alert(4)>x</b>'.repeat(34_000);

const yamlString = (s: string) => JSON.stringify(s);

const manifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: hostile
  labels:
    app: hostile
  annotations:
    img: ${yamlString(img)}
    script: ${yamlString(script)}
    link: ${yamlString(jsUrl)}
    rtl: ${yamlString(rtl)}
data:
  img: ${yamlString(img)}
  script: ${yamlString(script)}
  link: ${yamlString(jsUrl)}
  rtl: ${yamlString(rtl)}
---
apiVersion: v1
kind: Pod
metadata:
  name: hostile-pod
  annotations:
    img: ${yamlString(img)}
spec:
  containers:
  - name: c
    image: ${yamlString(img)}
    args: [${yamlString(script)}, ${yamlString(jsUrl)}, ${yamlString(rtl)}]
---
apiVersion: v1
kind: Event
metadata:
  name: hostile-event
involvedObject:
  apiVersion: v1
  kind: ConfigMap
  name: hostile
  namespace: default
reason: Hostile
message: ${yamlString(`${img} ${script} ${jsUrl} ${rtl}`)}
type: Warning
source:
  component: ${yamlString(img)}
`;

const bigManifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: big
data:
  big: ${yamlString(megabyte)}
`;

interface Watch {
  dialogs: string[];
  violations(): Promise<string[]>;
}

/** Records dialogs (dismissed) and CSP violations from the first script the page runs. */
async function watchPage(page: Page): Promise<Watch> {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  return { dialogs, violations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations) };
}

/** No markup from the objects became elements. */
async function expectNoInjectedElements(page: Page): Promise<void> {
  expect(await page.locator('img[src="x"], [onerror], [onmouseover]').count()).toBe(0);
  expect(await page.evaluate(() => [...document.scripts].filter((s) => s.textContent?.includes('alert')).length)).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
}

test('the Content-Security-Policy is in force: no eval, no inline script, and violations are reported', async ({ page }) => {
  const watch = await watchPage(page);
  await new Playground(page).goto();
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("base-uri 'none'");
  expect(policy).not.toContain('unsafe-eval');
  // An injected inline script does not run, and the listener hears about it: the "no violation" checks below
  // are not vacuous.
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.append(s);
    await new Promise((r) => setTimeout(r, 100));
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(watch.violations).toEqual([expect.stringMatching(/^script-src-elem inline /)]);
  expect(watch.dialogs).toEqual([]);
});

test('hostile object data renders as text in every view, the inspector and the console, with no dialog or CSP violation', async ({ page }) => {
  // Many steps on a megabyte of text: generous, for a loaded machine (no step waits on wall time).
  test.setTimeout(300_000);
  const watch = await watchPage(page);
  const app = await new Playground(page).goto();

  await app.apply(manifest);
  await expect(app.applyResults).toContainText('configmap/hostile created');
  await expect(app.applyResults).toContainText('pod/hostile-pod created');
  await expect(app.applyResults).toContainText('event/hostile-event created');
  // kubectl apply would copy a megabyte into its last-applied annotation (over the 256 KiB limit, as in Kubernetes):
  // kubectl create -f editor takes the buffer as it is.
  await app.paste(bigManifest);
  const { output } = await app.openConsole();
  await app.kubectl('kubectl create -f editor');
  await expect(output).toContainText('configmap/big created', { timeout: 60_000 });

  // Objects table and graph, Nodes, Control plane.
  await app.showView('Objects');
  await app.showObjectsTable();
  await expect(app.row({ kind: 'ConfigMap', name: 'hostile', namespace: 'default' })).toBeVisible();
  await expect(app.row({ kind: 'ConfigMap', name: 'big', namespace: 'default' })).toBeVisible();
  await app.showObjectsGraph();
  await app.showObjectsTable();
  await app.showView('Nodes');
  await app.showView('Control plane');
  await app.showView('Objects');

  // The timeline: the event's message and the kubelet's InvalidImageName event name the markup, as text.
  const events = page.getByRole('tabpanel', { name: /^Events/ });
  await page.getByRole('tablist', { name: 'Timeline' }).getByRole('tab', { name: /^Events/ }).click();
  await expect(events).toContainText(`${img} ${script} ${jsUrl}`);
  await expect(events).toContainText(`couldn't parse image reference "${img}": invalid reference format`, { timeout: 60_000 });
  await page.getByRole('tablist', { name: 'Timeline' }).getByRole('tab', { name: /^API requests/ }).click();

  // Every inspector section of each object.
  for (const ref of ['configmap/hostile in default', 'pod/hostile-pod in default', 'configmap/big in default']) {
    await page.getByRole('button', { name: `Inspect ${ref}`, exact: true }).click();
    const name = ref.split(' ')[0];
    await expect(app.inspector.getByRole('heading', { name: new RegExp(`^${name.split('/')[0]}/${name.split('/')[1]}$`, 'i') })).toBeVisible();
    for (const tab of await app.inspector.getByRole('tablist', { name: 'Inspector sections' }).getByRole('tab').all()) await tab.click();
    const yaml = await app.inspectorSection('YAML');
    if (name === 'configmap/big') {
      // A megabyte on one line: the page stays responsive and the text is there (scrolled, not laid out as markup).
      await expect(yaml.getByLabel(`YAML of ${name}`)).toContainText('<b onmouseover=alert(4)>x</b><b onmouseover');
    } else {
      await expect(yaml.getByLabel(`YAML of ${name}`)).toContainText(img);
    }
  }
  const podYaml = (await app.inspectorSection('YAML')).getByLabel('YAML of configmap/big');
  await podYaml.evaluate((el) => el.scrollTo({ left: el.scrollWidth, top: el.scrollHeight }));
  await page.getByRole('button', { name: 'Inspect configmap/hostile in default', exact: true }).click();
  const cmYaml = (await app.inspectorSection('YAML')).getByLabel('YAML of configmap/hostile');
  for (const text of [img, script, jsUrl, rtl]) await expect(cmYaml).toContainText(text);

  // The console: get, describe and -o yaml print the data as text.
  await app.kubectl('kubectl get configmap hostile -o yaml');
  await expect(output).toContainText(`img: ${img}`);
  await expect(output).toContainText(`link: ${jsUrl}`);
  await app.kubectl('kubectl describe configmap hostile');
  await expect(output).toContainText(script);
  await app.kubectl('kubectl describe pod hostile-pod');
  await expect(output).toContainText(`Image:`);
  await app.kubectl('kubectl get events');
  await expect(output).toContainText(`${img} ${script}`);
  await app.kubectl('kubectl get pods -o wide');
  await app.kubectl('kubectl get configmap big -o yaml');
  await expect(output).toContainText('kind: ConfigMap', { timeout: 60_000 });
  // The page still answers after printing a megabyte.
  await app.kubectl('kubectl get configmap big');
  await expect(output).toContainText(/big\s+1\s+\S+\s*$/, { timeout: 60_000 });

  await expectNoInjectedElements(page);
  expect(watch.dialogs).toEqual([]);
  expect(await watch.violations()).toEqual([]);
  expect(app.errors).toEqual([]);
});

test('under the CSP the editor still validates and completes from the Kubernetes schemas (Monaco and its workers run)', async ({ page }) => {
  const watch = await watchPage(page);
  const app = await new Playground(page).goto();
  await app.paste('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replicas: "many"\n  ');
  await expect(page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first()).toBeVisible();
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.suggest-widget').getByText('minReadySeconds', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  // The cluster worker answers too: an apply goes through it.
  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: under-csp\n');
  await expect(app.applyResults).toHaveText('configmap/under-csp created');
  expect(watch.dialogs).toEqual([]);
  expect(await watch.violations()).toEqual([]);
  expect(app.errors).toEqual([]);
});

test('an alias bomb pasted into the editor is refused by the alias limit, and the page stays responsive', async ({ page }) => {
  const watch = await watchPage(page);
  const app = await new Playground(page).goto();
  const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const bomb = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n${levels
    .slice(1)
    .map((l, i) => `  ${l}: &${l} [${Array(9).fill(`*${levels[i]}`).join(',')}]`)
    .join('\n')}\n`;
  await app.apply(bomb);
  await expect(app.applyResults).toContainText('Excessive alias count indicates a resource exhaustion attack');
  await expect(app.row({ kind: 'ConfigMap', name: 'bomb', namespace: 'default' })).toHaveCount(0);
  // Still answering: the next apply goes through.
  await app.apply('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after-bomb\n');
  await expect(app.applyResults).toHaveText('configmap/after-bomb created');
  expect(watch.dialogs).toEqual([]);
  expect(await watch.violations()).toEqual([]);
  expect(app.errors).toEqual([]);
});
