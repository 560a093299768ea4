import type { Locator, Page } from '@playwright/test';
import type { ScenarioObject } from '../../src/model/k8s/objects';
import { generatedCluster } from '../../src/model/scenario/generated';
import type { GeneratedClusterOptions } from '../../src/model/scenario/generated';
import { expect } from '../fixtures';

/**
 * Opens the "Your cluster" dialog from the header (unless it is open) and returns it.
 */
export async function openCluster(page: Page): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'Your cluster' });
  if (!(await dialog.isVisible())) await page.getByTestId('cluster-button').click();
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * Loads `objects` into the app as a person would bring their own cluster: as a `.json` file
 * (a `v1` List, what `kubectl get … -o json` prints) given to the import's file input (it is
 * in the "Your cluster" dialog, which need not be open: a file input takes files while hidden,
 * and a load that works leaves the dialog closed). Waits
 * until it is applied (the import's status line), its answer is on screen and the drawing
 * shows it (`data-node-count` on the topology equals the number of Node objects). `timeout` (ms) is for big clusters.
 */
export async function loadObjects(
  page: Page,
  objects: ScenarioObject[],
  timeout = 30_000,
): Promise<void> {
  const nodes = objects.filter((o) => o.kind === 'Node').length;
  const list = { apiVersion: 'v1', kind: 'List', items: objects };
  await page.getByTestId('file-input').setInputFiles({
    name: 'cluster.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(list)),
  });
  // Applied (the status line says so), the answer on screen is for it, and it is drawn. The
  // node count alone is not enough: a 3-node cluster replacing the 3-node default matches at once.
  await expect(page.getByTestId('import-notice')).not.toBeEmpty({ timeout });
  await expect(page.getByTestId('stage')).toHaveAttribute('data-model-pending', 'false', {
    timeout,
  });
  await expect(page.getByTestId('topology')).toHaveAttribute('data-node-count', String(nodes), {
    timeout,
  });
}

/** {@link loadObjects} for a generated cluster (src/model/scenario/generated.ts). */
export function loadGenerated(page: Page, opts: GeneratedClusterOptions, timeout?: number) {
  return loadObjects(page, generatedCluster(opts), timeout);
}
