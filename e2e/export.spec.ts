import { readFile, writeFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Download, Page } from '@playwright/test';
import { canonicalObjects } from '../src/model/scenario/canonical';
import { generatedCluster } from '../src/model/scenario/generated';
import { bindToObjects } from '../src/model/walkthrough/bind';
import { NODEPORT_TO_LOADBALANCER_STORY } from '../src/model/walkthrough/nodePortToLoadBalancer';
import { gifBlocks } from '../src/ui/export/gifFrames';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';

/**
 * Export (issue 12, scope 7): the current frame as SVG and PNG, the trace as GIF and WebM, and
 * the printable handout, each checked in the file itself — the SVG parses and has the step's
 * addresses as text, the PNG's IHDR is 2× the SVG's size, the GIF has one frame per step, the
 * WebM starts with the EBML magic and the MP4 with an ISO-BMFF `ftyp` box holding one H.264
 * sample per frame (or, where this Chromium cannot encode that video, the dialog says so) and
 * the handout prints one figure per step with its narration. The walkthrough exports one
 * frame per story step, captioned with the story step's own words.
 */

/** The walkthrough's steps that apply to the canonical cluster, as the model binds them. */
const STORY = bindToObjects(NODEPORT_TO_LOADBALANCER_STORY, canonicalObjects()).steps.flatMap(
  (s) => (s.applies ? [s] : []),
);

/** Whether the page can encode H.264 (the probes the dialog uses, at 1280×720). */
function pageEncodesAvc(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    if (typeof VideoEncoder === 'undefined') return false;
    for (const codec of ['avc1.640028', 'avc1.4d0028', 'avc1.420028']) {
      const r = await VideoEncoder.isConfigSupported({ codec, width: 1280, height: 720 }).catch(
        () => ({ supported: false }),
      );
      if (r.supported) return true;
    }
    return false;
  });
}

/**
 * An MP4's top-level boxes (ISO/IEC 14496-12: 32-bit size, 4-char type) and, from its sample
 * size box (`moov/trak/mdia/minf/stbl/stsz`, found by its type), the video's sample count.
 */
function mp4Summary(b: Buffer): { top: string[]; brand: string; samples: number; avc: boolean } {
  const top: string[] = [];
  for (let i = 0; i + 8 <= b.length;) {
    const size = b.readUInt32BE(i);
    top.push(b.toString('latin1', i + 4, i + 8));
    if (size < 8) break;
    i += size;
  }
  const stsz = b.indexOf('stsz', 0, 'latin1');
  // stsz: type, version+flags (4), sample_size (4), sample_count (4).
  const samples = stsz < 0 ? -1 : b.readUInt32BE(stsz + 12);
  return { top, brand: b.toString('latin1', 8, 12), samples, avc: b.includes('avcC', 0, 'latin1') };
}

async function openExport(page: Page) {
  await page.getByTestId('export-button').click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await expect(dialog).toBeVisible();
  await expect(dialog).not.toHaveAttribute('data-webm-support', 'checking');
  return dialog;
}

/** Clicks the export `kind` and returns its download, once the dialog says it is done. */
async function exportFile(page: Page, kind: string): Promise<{ d: Download; bytes: Buffer }> {
  const dialog = page.getByTestId('export-dialog');
  const [d] = await Promise.all([
    page.waitForEvent('download'),
    dialog.locator(`button[data-export="${kind}"]`).click(),
  ]);
  await expect(dialog).toHaveAttribute('data-export-state', 'done');
  const path = await d.path();
  return { d, bytes: await readFile(path) };
}

/** The packet's source and destination addresses as the page's own packet shows them. */
async function packetAddresses(page: Page): Promise<{ src: string; dst: string }> {
  const title = await page.locator('[data-testid="packet"] > title').textContent();
  const m = /from (\d+\.\d+\.\d+\.\d+):\d+ to (\d+\.\d+\.\d+\.\d+):(\d+)/.exec(title ?? '');
  if (!m) throw new Error(`no addresses in the packet's title: ${title}`);
  return { src: m[1]!, dst: `${m[2]}:${m[3]}` };
}

test.describe('Export', () => {
  test('SVG and PNG of the current frame, GIF and WebM of the trace', async ({ page }) => {
    test.setTimeout(60_000);
    const app = await new AppPage(page).goto();
    // Step 2: the balancer delivered the connection to node-2's NodePort (198.51.100.23 →
    // 192.168.0.12:31000).
    await app.goToStep(1);
    const { src, dst } = await packetAddresses(page);
    expect(src).toBe('198.51.100.23');
    expect(dst).toBe('192.168.0.12:31000');
    const steps = await app.stepCount();
    const policy = (await page.getByTestId('app').getAttribute('data-policy'))!.toLowerCase();
    const dialog = await openExport(page);

    const axe = await new AxeBuilder({ page }).include('[data-testid="export-dialog"]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual(
      [],
    );

    // SVG: a well-formed standalone file with the step's addresses as text.
    const svg = await exportFile(page, 'svg');
    expect(svg.d.suggestedFilename()).toBe(`lb-datapath-${policy}-step-2-of-${steps}.svg`);
    const text = svg.bytes.toString('utf8');
    const parsed = await page.evaluate((t) => {
      const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
      const root = doc.documentElement;
      const refs = [...t.matchAll(/url\(#([^)"]+)\)/g)].map((m) => m[1]!);
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        name: root.localName,
        width: Number(root.getAttribute('width')),
        height: Number(root.getAttribute('height')),
        text: root.textContent ?? '',
        unresolved: refs.filter((id) => !doc.getElementById(id)),
        refs: refs.length,
        classStyled: /var\(--/.test(t),
      };
    }, text);
    expect(parsed.error).toBeNull();
    expect(parsed.name).toBe('svg');
    expect(parsed.text).toContain(src);
    expect(parsed.text).toContain(dst.split(':')[0]);
    expect(parsed.text).toContain('31000');
    expect(parsed.refs).toBeGreaterThan(0);
    expect(parsed.unresolved).toEqual([]);
    expect(parsed.classStyled).toBe(false);
    await expect(page.getByTestId('export-status')).toContainText('SVG ready');

    // PNG: decodes to 2× the SVG's width and height (the IHDR chunk, big-endian).
    const png = await exportFile(page, 'png');
    const b = png.bytes;
    expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(b.toString('latin1', 12, 16)).toBe('IHDR');
    const w = b.readUInt32BE(16);
    const h = b.readUInt32BE(20);
    expect(w).toBe(2 * parsed.width);
    expect(h).toBe(2 * parsed.height);
    expect(png.d.suggestedFilename()).toBe(
      `lb-datapath-${policy}-step-2-of-${steps}-${w}x${h}@2x.png`,
    );

    // GIF: exactly one frame (image descriptor + graphic control extension) per step, 1.5 s each.
    const gif = await exportFile(page, 'gif');
    expect(gif.d.suggestedFilename()).toBe(`lb-datapath-${policy}-${steps}-steps.gif`);
    const g = gifBlocks(new Uint8Array(gif.bytes));
    expect(g.images).toBe(steps);
    expect(g.controls).toBe(steps);
    expect(g.delaysMs).toEqual(Array.from({ length: steps }, () => 1500));
    await expect(page.getByTestId('export-status')).toContainText(`GIF ready: ${steps} frames`);
    console.log(`export: ${await page.getByTestId('export-status').textContent()}`);

    // WebM: whichever this browser supports.
    const encodes = await page.evaluate(async () => {
      if (typeof VideoEncoder === 'undefined') return false;
      for (const codec of ['vp09.00.10.08', 'vp8', 'av01.0.04M.08']) {
        const r = await VideoEncoder.isConfigSupported({ codec, width: 1280, height: 720 }).catch(
          () => ({ supported: false }),
        );
        if (r.supported) return true;
      }
      return false;
    });
    test.info().annotations.push({ type: 'webm-encoder', description: String(encodes) });
    if (encodes) {
      await expect(dialog).toHaveAttribute('data-webm-support', 'yes');
      const webm = await exportFile(page, 'webm');
      expect(webm.d.suggestedFilename()).toBe(`lb-datapath-${policy}-${steps}-steps.webm`);
      expect([...webm.bytes.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
      expect(webm.bytes.includes(Buffer.from('webm'))).toBe(true);
    } else {
      await expect(dialog).toHaveAttribute('data-webm-support', 'no');
      await expect(page.getByTestId('export-webm-missing')).toContainText('cannot encode video');
      await expect(dialog.locator('button[data-export="webm"]')).toHaveAttribute(
        'aria-disabled',
        'true',
      );
    }
    const status = await page.getByTestId('export-status').textContent();
    test.info().annotations.push({ type: 'last-status', description: status ?? '' });
    console.log(`export: ${status}`);

    // Esc closes the dialog and gives focus back to Export….
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('export-button')).toBeFocused();
  });

  test('the printable handout: one figure per step with its narration, in print', async ({
    page,
    context,
  }) => {
    await context.addInitScript(() => {
      window.print = () => {
        document.documentElement.dataset['printed'] = 'yes';
      };
    });
    const app = await new AppPage(page).goto();
    await app.goToStep(0);
    const steps = await app.stepCount();
    const title = await app.narrationTitle();
    await openExport(page);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.locator('button[data-export="handout"]').click(),
    ]);
    await expect(page.getByTestId('export-dialog')).toHaveAttribute('data-export-state', 'done');
    await popup.emulateMedia({ media: 'print' });
    const figures = popup.locator('figure');
    await expect(figures).toHaveCount(steps);
    await expect(figures.first().locator('figcaption h2')).toHaveText(title);
    for (let i = 0; i < steps; i++) {
      const f = figures.nth(i);
      await expect(f.locator('svg').first()).toBeVisible();
      await expect(f.locator('figcaption .count')).toContainText(`Step ${i + 1} of ${steps}`);
      await expect(f.locator('figcaption p').last()).not.toBeEmpty();
    }
    await expect(popup.locator('#print')).toBeHidden();
    expect(await figures.first().evaluate((e) => getComputedStyle(e).breakAfter)).toBe('page');
    // Every figure's marker ids are its own (several SVGs on one page).
    const dup = await popup.evaluate(() => {
      const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
      return ids.filter((id, i) => ids.indexOf(id) !== i);
    });
    expect(dup).toEqual([]);
  });

  test('MP4 of the trace: an ISO-BMFF file with one H.264 sample per step, or a plain no', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const app = await new AppPage(page).goto();
    const steps = await app.stepCount();
    const policy = (await page.getByTestId('app').getAttribute('data-policy'))!.toLowerCase();
    const dialog = await openExport(page);
    const avc = await pageEncodesAvc(page);
    test.info().annotations.push({ type: 'mp4-encoder', description: String(avc) });
    if (!avc) {
      await expect(dialog).toHaveAttribute('data-mp4-support', 'no');
      await expect(page.getByTestId('export-mp4-missing')).toContainText(
        'This browser cannot encode MP4 (H.264) video',
      );
      await expect(dialog.locator('button[data-export="mp4"]')).toHaveAttribute(
        'aria-disabled',
        'true',
      );
      return;
    }
    await expect(dialog).toHaveAttribute('data-mp4-support', 'yes');
    await expect(page.getByTestId('export-mp4-missing')).toHaveCount(0);
    const mp4 = await exportFile(page, 'mp4');
    expect(mp4.d.suggestedFilename()).toBe(`lb-datapath-${policy}-${steps}-steps.mp4`);
    expect(mp4.bytes.toString('latin1', 4, 8)).toBe('ftyp');
    const m = mp4Summary(mp4.bytes);
    // Fast start: the index (moov) comes before the media (mdat).
    expect(m.top.slice(0, 3)).toEqual(['ftyp', 'moov', 'mdat']);
    expect(m.avc).toBe(true);
    expect(m.samples).toBe(steps);
    const status = await page.getByTestId('export-status').textContent();
    expect(status).toContain(`MP4 ready (H.264): ${steps} frames (one per step)`);
    test.info().annotations.push({ type: 'mp4', description: `${mp4.bytes.length} B: ${status}` });
    console.log(`export: ${status}`);
  });

  test('a browser without an H.264 encoder: the dialog says MP4 cannot be made, WebM can', async ({
    page,
    context,
  }) => {
    // As a Chromium built without H.264 would answer: every avc1 configuration unsupported.
    await context.addInitScript(() => {
      const ask = VideoEncoder.isConfigSupported.bind(VideoEncoder);
      VideoEncoder.isConfigSupported = (c: VideoEncoderConfig) =>
        c.codec.startsWith('avc1') ? Promise.resolve({ supported: false, config: c }) : ask(c);
    });
    await new AppPage(page).goto();
    const dialog = await openExport(page);
    expect(await pageEncodesAvc(page)).toBe(false);
    await expect(dialog).toHaveAttribute('data-mp4-support', 'no');
    await expect(dialog).toHaveAttribute('data-webm-support', 'yes');
    const mp4 = dialog.locator('button[data-export="mp4"]');
    await expect(mp4).toHaveAttribute('aria-disabled', 'true');
    await expect(mp4).toHaveAccessibleDescription(
      'This browser cannot encode MP4 (H.264) video; WebM works.',
    );
    // Still focusable (aria-disabled, not disabled) so its reason is read; pressing it does nothing.
    await mp4.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveAttribute('data-export-state', 'idle');
    await expect(page.getByTestId('export-status')).toHaveText('');
  });

  test('the walkthrough: one frame per story step (GIF, MP4, handout), the view untouched', async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    await context.addInitScript(() => {
      window.print = () => {
        document.documentElement.dataset['printed'] = 'yes';
      };
    });
    const app = await new AppPage(page).goto();
    await app.goToStep(2);
    const steps = await app.stepCount();
    const title = await app.narrationTitle();
    const n = STORY.length;
    expect(n).toBeGreaterThan(1);
    const dialog = await openExport(page);
    const story = dialog.getByRole('radio', { name: /^The walkthrough/ });
    await expect(story).toHaveAccessibleName(`The walkthrough (${n} story steps, one frame each)`);
    await expect(dialog.getByRole('radio', { name: /^This trace/ })).toBeChecked();
    await story.check();
    await expect(dialog).toHaveAttribute('data-export-source', 'story');

    const gif = await exportFile(page, 'gif');
    expect(gif.d.suggestedFilename()).toBe(`lb-datapath-walkthrough-${n}-story-steps.gif`);
    const g = gifBlocks(new Uint8Array(gif.bytes));
    // Frames counted by their graphic control extensions (0x21 0xF9): one per story step.
    expect(g.controls).toBe(n);
    expect(g.images).toBe(n);
    await expect(page.getByTestId('export-status')).toContainText(
      `GIF ready: ${n} frames (one per story step`,
    );
    const gifStatus = await page.getByTestId('export-status').textContent();
    console.log(`walkthrough: ${gifStatus}`);

    if (await pageEncodesAvc(page)) {
      const mp4 = await exportFile(page, 'mp4');
      expect(mp4.d.suggestedFilename()).toBe(`lb-datapath-walkthrough-${n}-story-steps.mp4`);
      expect(mp4.bytes.toString('latin1', 4, 8)).toBe('ftyp');
      expect(mp4Summary(mp4.bytes).samples).toBe(n);
      console.log(`walkthrough: ${await page.getByTestId('export-status').textContent()}`);
    }

    // The handout: one figure per story step, captioned with the story step's own words.
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      dialog.locator('button[data-export="handout"]').click(),
    ]);
    await expect(dialog).toHaveAttribute('data-export-state', 'done');
    await expect(popup.locator('h1')).toContainText(NODEPORT_TO_LOADBALANCER_STORY.title);
    const figures = popup.locator('figure');
    await expect(figures).toHaveCount(n);
    for (const [k, s] of STORY.entries()) {
      const f = figures.nth(k);
      await expect(f.locator('figcaption h2')).toHaveText(s.title);
      await expect(f.locator('figcaption p').last()).toHaveText(s.body);
      await expect(f.locator('figcaption .count')).toContainText(`Story step ${k + 1} of ${n}`);
      // Each frame's drawing carries its own caption as text, too.
      await expect(f.locator('svg').first()).toContainText(s.title.slice(0, 20));
    }
    await popup.close();

    // The view on screen is where it was: same step of the same trace, same narration.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await app.expectStep(2);
    expect(await app.stepCount()).toBe(steps);
    expect(await app.narrationTitle()).toBe(title);
  });

  test('a 1,000-node cluster: SVG and GIF export, timed', async ({ page }) => {
    test.setTimeout(300_000);
    await page.goto('/');
    const objects = generatedCluster({ nodes: 1000, pods: 10_000 });
    const file = test.info().outputPath('cluster.json');
    await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
    await page.getByTestId('file-input').setInputFiles(file);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="topology"]')?.getAttribute('data-node-count') ===
          '1000' &&
        document.querySelector('[data-testid="stage"]')?.getAttribute('data-model-pending') ===
          'false' &&
        document.querySelector('[data-testid="app"]')?.getAttribute('data-step-count') !== '0',
      undefined,
      { timeout: 280_000, polling: 500 },
    );
    const steps = Number(await page.getByTestId('app').getAttribute('data-step-count'));
    await openExport(page);
    const svg = await exportFile(page, 'svg');
    const svgStatus = await page.getByTestId('export-status').textContent();
    const gif = await exportFile(page, 'gif');
    const g = gifBlocks(new Uint8Array(gif.bytes));
    expect(g.images).toBe(steps);
    const gifStatus = await page.getByTestId('export-status').textContent();
    test
      .info()
      .annotations.push(
        { type: 'svg', description: `${svg.bytes.length} B: ${svgStatus}` },
        { type: 'gif', description: `${gif.bytes.length} B: ${gifStatus}` },
      );
    console.log(`1,000 nodes: ${svgStatus} | ${gifStatus}`);
  });
});
