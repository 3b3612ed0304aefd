// Page model of the playground: role- and name-based locators only, so the specs read like what a user does.
import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';

export interface ObjectRef {
  kind: string;
  name: string;
  namespace?: string;
}

/** The Delete button's accessible name, which also identifies the row: "Delete configmap/demo in default". */
export function deleteLabel({ kind, name, namespace }: ObjectRef): string {
  return `Delete ${kind.toLowerCase()}/${name}${namespace ? ` in ${namespace}` : ''}`;
}

export type Column = 'Kind' | 'Namespace' | 'Name' | 'Status' | 'UID' | 'Resource version' | 'Age';

export class Playground {
  readonly heading: Locator;
  readonly objects: Locator;
  readonly alert: Locator;
  readonly status: Locator;
  readonly simulatedTime: Locator;
  readonly editor: Locator;
  readonly applyResults: Locator;

  /** Console errors and uncaught exceptions of the page and its worker, for a spec to assert there were none. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(m.text());
    });
    page.on('pageerror', (e) => this.errors.push(e.message));
    page.on('worker', (w) => w.on('console', (m) => m.type() === 'error' && this.errors.push(`worker: ${m.text()}`)));
    this.heading = page.getByRole('heading', { level: 1, name: 'kubeplay' });
    this.objects = page.getByRole('table', { name: /objects? in the cluster/ });
    this.alert = page.getByRole('alert');
    this.status = page.getByRole('status');
    this.simulatedTime = page.getByRole('region', { name: 'Simulation' }).locator('time');
    this.editor = page.getByRole('textbox', { name: /^Manifest editor/ });
    this.applyResults = page.getByRole('list', { name: 'Apply results' });
  }

  async goto(): Promise<this> {
    await this.page.goto('/');
    await expect(this.heading).toBeVisible();
    await this.showObjectsTable();
    return this;
  }

  async reload(): Promise<this> {
    await this.page.reload();
    await expect(this.heading).toBeVisible();
    await this.showObjectsTable();
    return this;
  }

  /** The Objects tab opens on the graph; the specs that read rows switch it to the table (the choice sticks across tabs). */
  async showObjectsTable(): Promise<void> {
    const table = this.page.getByRole('group', { name: 'Objects display' }).getByRole('button', { name: 'Table', exact: true });
    if (await table.count()) await table.click();
  }

  /** The Objects tab's graph, with one node per object labelled "Deployment nginx, 3/3". */
  async showObjectsGraph(): Promise<Locator> {
    await this.page.getByRole('group', { name: 'Objects display' }).getByRole('button', { name: 'Graph', exact: true }).click();
    return this.page.getByRole('region', { name: /^Object graph of / });
  }

  /** Shows one namespace ('default', …) or 'All namespaces' in the Objects graph; returns the graph. */
  async showGraphNamespace(namespace: string): Promise<Locator> {
    await this.page.getByRole('tabpanel', { name: 'Objects' }).getByRole('combobox', { name: 'Namespace' }).selectOption({ label: namespace });
    return this.page.getByRole('region', { name: namespace === 'All namespaces' ? 'Object graph of all namespaces' : `Object graph of namespace ${namespace}` });
  }

  /** The Nodes view's pod chips (buttons named "Pod default/nginx-…: Running"), optionally within one node's card. */
  podChips(name: RegExp, node?: string): Locator {
    const scope = node ? this.page.getByRole('region', { name: `Node ${node}`, exact: true }) : this.page.getByRole('tabpanel', { name: 'Nodes' });
    return scope.getByRole('button', { name });
  }

  async showView(name: 'Control plane' | 'Objects' | 'Nodes'): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Cluster views' }).getByRole('tab', { name }).click();
  }

  /** The Control plane tab's graph: components as groups ("API server", "etcd", "kubelet on node-1", …), tokens as buttons. */
  async showControlPlane(): Promise<Locator> {
    await this.showView('Control plane');
    return this.page.getByRole('region', { name: 'Control plane graph' });
  }

  row(ref: ObjectRef): Locator {
    return this.objects.getByRole('row').filter({ has: this.page.getByRole('button', { name: deleteLabel(ref), exact: true }) });
  }

  /** Rows of one kind whose name starts with a prefix (pods of a Deployment). */
  rowsNamed(kind: string, prefix: string): Locator {
    return this.objects.getByRole('row').filter({ has: this.page.getByRole('button', { name: new RegExp(`^Delete ${kind.toLowerCase()}/${prefix}`) }) });
  }

  /** The text of one column of an object's row, by the column's header. */
  async cell(ref: ObjectRef, column: Column): Promise<string> {
    return (await this.cellOf(this.row(ref), column).innerText()).trim();
  }

  cellOf(row: Locator, column: Column): Locator {
    return row.getByRole('cell').nth(this.columnIndex(column));
  }

  private columnIndex(column: Column): number {
    const columns: Column[] = ['Kind', 'Namespace', 'Name', 'Status', 'UID', 'Resource version', 'Age'];
    return columns.indexOf(column);
  }

  /** Replaces the editor's buffer as a paste would (select all, then paste the text). */
  async paste(manifest: string): Promise<void> {
    await expect(this.editor).toBeAttached();
    await this.editor.focus();
    await this.page.keyboard.press('ControlOrMeta+A');
    await this.editor.evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, manifest);
  }

  async apply(manifest?: string): Promise<void> {
    if (manifest !== undefined) await this.paste(manifest);
    await this.page.getByRole('button', { name: 'Apply', exact: true }).click();
  }

  async setSpeed(speed: number): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Speed' }).selectOption({ label: `×${speed}` });
  }

  /** Opens the top bar's Cluster settings dialog; returns it once its inputs are there. */
  async openSettings(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Cluster settings', exact: true }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Cluster settings' });
    await expect(dialog.getByRole('spinbutton', { name: /^Node monitor grace period/ })).toBeVisible();
    return dialog;
  }

  /** Demo timings (grace 10 s, toleration 30 s for pods created from now on, pull 1 s, status 5 s), applied. */
  async useDemoTimings(): Promise<void> {
    const dialog = await this.openSettings();
    await dialog.getByRole('button', { name: 'Demo timings' }).click();
    await dialog.getByRole('button', { name: 'Apply settings' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Settings applied.');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  /** Resets the cluster, accepting the confirmation dialog. */
  async resetCluster(): Promise<void> {
    this.page.once('dialog', (d) => void d.accept());
    await this.page.getByRole('button', { name: 'Reset cluster' }).click();
  }

  async delete(ref: ObjectRef): Promise<void> {
    await this.page.getByRole('button', { name: deleteLabel(ref), exact: true }).click();
  }

  /** Shows the timeline's Console tab; returns its prompt ("kubectl command") and output (role=log). */
  async openConsole(): Promise<{ prompt: Locator; output: Locator }> {
    await this.page.getByRole('tablist', { name: 'Timeline' }).getByRole('tab', { name: 'Console' }).click();
    return { prompt: this.page.getByRole('textbox', { name: 'kubectl command' }), output: this.page.getByRole('log', { name: 'Console output' }) };
  }

  /**
   * Types a line at the console's prompt and runs it (Enter), once the previous command has finished: Enter does
   * nothing while a command runs (the prompt says "… is running"), and printing a megabyte can outlast the moment
   * its last line appears.
   */
  async kubectl(line: string): Promise<void> {
    const { prompt } = await this.openConsole();
    await expect(prompt).not.toHaveAttribute('placeholder', /is running/, { timeout: 60_000 });
    await prompt.fill(line);
    await prompt.press('Enter');
  }

  /** The inspector side panel (shows the selected object). */
  get inspector(): Locator {
    return this.page.getByRole('complementary', { name: 'Inspector' });
  }

  /** Opens one of the inspector's sections and returns its panel. */
  async inspectorSection(name: 'Summary' | 'YAML' | 'Events' | 'Relations' | 'Scheduling' | 'Why'): Promise<Locator> {
    await this.inspector.getByRole('tablist', { name: 'Inspector sections' }).getByRole('tab', { name, exact: true }).click();
    return this.inspector.getByRole('tabpanel', { name, exact: true });
  }
}
