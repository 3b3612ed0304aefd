// Page model of the first page: role- and name-based locators only, so the spec reads like what a user does.
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

export class FirstPage {
  readonly heading: Locator;
  readonly objects: Locator;
  readonly alert: Locator;
  readonly status: Locator;
  readonly simulatedTime: Locator;

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
  }

  async goto(): Promise<this> {
    await this.page.goto('/');
    await expect(this.heading).toBeVisible();
    return this;
  }

  async reload(): Promise<this> {
    await this.page.reload();
    await expect(this.heading).toBeVisible();
    return this;
  }

  row(ref: ObjectRef): Locator {
    return this.objects.getByRole('row').filter({ has: this.page.getByRole('button', { name: deleteLabel(ref), exact: true }) });
  }

  /** The text of one column of an object's row, by the column's header. */
  async cell(ref: ObjectRef, column: 'Kind' | 'Namespace' | 'Name' | 'UID' | 'Resource version' | 'Age'): Promise<string> {
    const headers = await this.objects.getByRole('columnheader').allInnerTexts();
    const index = headers.findIndex((h) => h.trim() === column);
    if (index < 0) throw new Error(`no column "${column}" in ${JSON.stringify(headers)}`);
    return (await this.row(ref).getByRole('cell').nth(index).innerText()).trim();
  }

  async createConfigMap(name: string, key: string, value: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Create a ConfigMap' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Key', { exact: true }).fill(key);
    await form.getByLabel('Value', { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Create ConfigMap' }).click();
  }

  async apply(manifest: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Apply a manifest' });
    await form.getByLabel('Manifest').fill(manifest);
    await form.getByRole('button', { name: 'Apply' }).click();
  }

  /** Resets the cluster, accepting the confirmation dialog. */
  async resetCluster(): Promise<void> {
    this.page.once('dialog', (d) => void d.accept());
    await this.page.getByRole('button', { name: 'Reset cluster' }).click();
  }

  async delete(ref: ObjectRef): Promise<void> {
    await this.page.getByRole('button', { name: deleteLabel(ref), exact: true }).click();
  }
}
