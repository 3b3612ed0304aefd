import { expect, test } from '@playwright/test';
import { Playground } from './models/playground';

test('each view renders without console errors at 1280×720, with a screenshot of each', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const app = await new Playground(page).goto();
  await app.showView('Control plane');
  await expect(page.getByRole('list', { name: 'Recent API requests' }).getByRole('listitem').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('control-plane.png') });
  await app.showView('Nodes');
  await expect(page.getByRole('tab', { name: 'Nodes' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Nodes' })).toContainText('node-1');
  await page.screenshot({ path: test.info().outputPath('nodes.png') });
  // The tablist's keyboard pattern: from Nodes, ArrowLeft goes to Objects.
  await page.getByRole('tab', { name: 'Nodes' }).press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Objects' })).toBeFocused();
  await expect(page.getByRole('tab', { name: 'Objects' })).toHaveAttribute('aria-selected', 'true');
  await expect(app.objects).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('objects.png') });
  await page.getByRole('tab', { name: /^API requests/ }).click();
  await expect(page.getByRole('tabpanel', { name: /^API requests/ }).getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('tab', { name: /^Events/ }).click();
  await expect(page.getByRole('tabpanel', { name: /^Events/ })).toContainText('NodeReady');
  expect(app.errors).toEqual([]);
});

test('theme, presentation mode and resizable panels', async ({ page }) => {
  const app = await new Playground(page).goto();
  const html = page.locator('html');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
  await expect(html).toHaveAttribute('data-theme', 'light');

  const presentation = page.getByRole('button', { name: 'Presentation mode' });
  await presentation.click();
  await expect(presentation).toHaveAttribute('aria-pressed', 'true');
  await expect(html).toHaveClass(/presentation/);
  await page.screenshot({ path: test.info().outputPath('presentation.png') });
  await app.reload();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await expect(html).toHaveClass(/presentation/);
  await presentation.click();
  await expect(html).not.toHaveClass(/presentation/);

  const splitter = page.getByRole('separator', { name: 'Resize editor' });
  const before = Number(await splitter.getAttribute('aria-valuenow'));
  await splitter.focus();
  await page.keyboard.press('ArrowRight');
  await expect(splitter).toHaveAttribute('aria-valuenow', String(before + 24));
  const box = (await page.getByRole('region', { name: 'Manifest' }).boundingBox())!;
  const handle = (await splitter.boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 100, handle.y + handle.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await page.getByRole('region', { name: 'Manifest' }).boundingBox())!.width).toBeGreaterThan(box.width + 50);
  expect(app.errors).toEqual([]);
});

test('every control outside the editor has an accessible name', async ({ page }) => {
  await new Playground(page).goto();
  await expect(page.getByRole('textbox', { name: /^Manifest editor/ })).toBeAttached();
  const unnamed = await page.evaluate(() => {
    const controls = document.querySelectorAll('button, select, input, textarea, [role="separator"], [role="tab"]');
    const missing: string[] = [];
    for (const el of controls) {
      if (el.closest('.monaco-editor, .overflowingContentWidgets, .context-view')) continue;
      const labelled = el.getAttribute('aria-labelledby');
      const name =
        el.getAttribute('aria-label') ||
        (labelled && document.getElementById(labelled)?.textContent) ||
        ((el as HTMLInputElement).labels?.[0]?.textContent ?? '') ||
        (el.tagName === 'SELECT' ? '' : el.textContent);
      if (!name?.trim()) missing.push(el.outerHTML.slice(0, 120));
    }
    return missing;
  });
  expect(unnamed).toEqual([]);
});
