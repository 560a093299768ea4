/**
 * The embed (issue 12): `embed.html` (and `?embed=1`) in iframes on a host page of another
 * origin, its postMessage API and its keys. The host page is served by the test itself
 * (page.route) at http://docs.example.test/, so the frames are cross-origin as on a real docs
 * site.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Frame, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { AppPage } from './pages/app';

const HOST = 'http://docs.example.test';

/** The share hash (`#s=…`) of the default scene switched to externalTrafficPolicy Local. */
async function localHash(page: Page): Promise<string> {
  const app = await new AppPage(page).goto('/');
  await app.setPolicy('Local');
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#s=/);
  const hash = await page.evaluate(() => location.hash);
  await page.evaluate(() => localStorage.clear());
  return hash;
}

/** Serves a host page with `body` at HOST/ and opens it; the page records every message. */
async function openHost(page: Page, body: string): Promise<void> {
  await page.route(`${HOST}/*.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Docs page</title></head><body>
<h1>Docs page</h1>
${body}
<script>
  window.msgs = [];
  window.hostKeys = [];
  const frames = () => [...document.querySelectorAll('iframe')];
  addEventListener('message', (e) => {
    const frame = frames().find((f) => f.contentWindow === e.source);
    window.msgs.push({ from: frame ? frame.id : '?', origin: e.origin, data: e.data });
    if (frame && e.data && e.data.type === 'lb-datapath:resize') frame.style.height = e.data.height + 'px';
  });
  document.addEventListener('keydown', (e) => window.hostKeys.push(e.key));
</script></body></html>`,
    }),
  );
  await page.goto(`${HOST}/guide.html`);
}

type Msg = { from: string; origin: string; data: { type: string; [k: string]: unknown } };
const messages = (page: Page) => page.evaluate(() => (window as unknown as { msgs: Msg[] }).msgs);
const lastOf = async (page: Page, from: string, type: string) =>
  (await messages(page)).filter((m) => m.from === from && m.data.type === type).at(-1)?.data;

function frameOf(page: Page, id: string): Frame {
  const f = page.frame({ url: (u) => u.href.includes(`frame=${id}`) });
  if (!f) throw new Error(`no frame ${id}`);
  return f;
}

test('two iframes: each its own scene, played independently, sized by its messages, keys to the focused one', async ({
  page,
  baseURL,
}) => {
  const hash = await localHash(page);
  const src = (q: string, h = '') => `${baseURL}/embed.html?${q}${h}`;
  await openHost(
    page,
    `<iframe id="a" title="LoadBalancer data path: Cluster" src="${src('frame=a&controls=minimal')}" width="100%" height="200" loading="lazy" allow="fullscreen"></iframe>
<iframe id="b" title="LoadBalancer data path: Local" src="${src(`frame=b&theme=dark&step=3&origin=${HOST}`, hash)}" width="100%" height="200"></iframe>`,
  );
  await expect
    .poll(() => lastOf(page, 'a', 'lb-datapath:ready'))
    .toEqual({
      type: 'lb-datapath:ready',
      step: 0,
      steps: 13,
    });
  await expect.poll(async () => (await lastOf(page, 'b', 'lb-datapath:ready'))?.['step']).toBe(3);

  const a = frameOf(page, 'a');
  const b = frameOf(page, 'b');
  const historyLength = await page.evaluate(() => history.length);
  // Each shows its own scene: a the default (Cluster), b the link's (Local), dark, at step 3.
  await expect(a.getByTestId('embed')).toHaveAttribute('data-theme', 'system');
  await expect(b.getByTestId('embed')).toHaveAttribute('data-theme', 'dark');
  await expect(a.getByTestId('embed')).toHaveAttribute('data-controls', 'minimal');
  await expect(a.getByTestId('step-counter')).toHaveText('Before step 1 of 13');
  await expect(b.getByTestId('step-counter')).toHaveText(/^Step 3 of \d+$/);
  await expect(b.locator('.balancer, [data-testid=topology]').first()).toBeVisible();
  // Only the stage, the player and the narration: no header, no scene panel, no cluster dialog.
  await expect(a.locator('.app-header')).toHaveCount(0);
  await expect(a.getByTestId('scene')).toHaveCount(0);
  await expect(a.getByTestId('cluster-button')).toHaveCount(0);
  await expect(a.getByRole('link', { name: /Open in the full app/ })).toHaveAttribute(
    'target',
    '_blank',
  );

  // Sized by its messages: the host set each frame's height to the reported one.
  const heightA = Number((await lastOf(page, 'a', 'lb-datapath:resize'))?.['height']);
  expect(heightA).toBeGreaterThan(300);
  await expect
    .poll(() => page.locator('#a').evaluate((f) => (f as HTMLIFrameElement).clientHeight))
    .toBe(heightA);
  const docA = await a.evaluate(() => Math.ceil(document.documentElement.scrollHeight));
  expect(Math.abs(docA - heightA)).toBeLessThanOrEqual(1);

  // Played independently: Next in a moves a only.
  await a.getByRole('button', { name: 'Next step' }).click();
  await expect(a.getByTestId('step-counter')).toHaveText('Step 1 of 13');
  await expect(b.getByTestId('step-counter')).toHaveText(/^Step 3 of/);
  expect(await lastOf(page, 'a', 'lb-datapath:step')).toEqual({
    type: 'lb-datapath:step',
    step: 1,
    steps: 13,
    playing: false,
  });

  // Keys act only on the focused embed; keys it does not use go to the host page.
  await page.keyboard.press('ArrowRight'); // focus is in frame a (its Next button)
  await expect(a.getByTestId('step-counter')).toHaveText('Step 2 of 13');
  await expect(b.getByTestId('step-counter')).toHaveText(/^Step 3 of/);
  await page.keyboard.press('PageDown');
  await expect
    .poll(async () => (await lastOf(page, 'a', 'lb-datapath:key'))?.['key'])
    .toBe('PageDown');
  await b.getByTestId('embed').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowLeft');
  await expect(b.getByTestId('step-counter')).toHaveText(/^Step 2 of/);
  await expect(a.getByTestId('step-counter')).toHaveText('Step 2 of 13');
  // Nothing written to the app's storage, the host's history untouched.
  expect(await a.evaluate(() => localStorage.length)).toBe(0);
  expect(await page.evaluate(() => history.length)).toBe(historyLength);
  await expect(a.getByTestId('step-counter')).toHaveText('Step 2 of 13');
});

test('the postMessage API: goTo, play, pause, set; origin checks; errors name the field', async ({
  page,
  baseURL,
}) => {
  await openHost(
    page,
    `<iframe id="a" title="LoadBalancer data path" src="${baseURL}/embed.html?frame=a&origin=${HOST}" width="100%" height="600"></iframe>
<iframe id="z" title="Not allowed to drive it" src="${baseURL}/embed.html?frame=z&origin=https://other.example" width="100%" height="600"></iframe>`,
  );
  await expect.poll(() => lastOf(page, 'a', 'lb-datapath:ready')).toBeTruthy();
  const send = (id: string, data: unknown) =>
    page.evaluate(
      ([i, d]) =>
        (document.getElementById(i as string) as HTMLIFrameElement).contentWindow?.postMessage(
          d,
          '*',
        ),
      [id, data] as const,
    );
  const a = frameOf(page, 'a');
  await send('a', { type: 'lb-datapath:goTo', step: 5 });
  await expect(a.getByTestId('step-counter')).toHaveText('Step 5 of 13');
  await send('a', { type: 'lb-datapath:set', toggle: 'externalTrafficPolicy', value: 'Local' });
  await expect(a.getByTestId('narration')).toBeVisible();
  await expect
    .poll(() =>
      a.evaluate(() =>
        document.querySelector('[data-testid=topology]')?.getAttribute('aria-label'),
      ),
    )
    .toContain('3 nodes');
  await send('a', { type: 'lb-datapath:set', toggle: 'externalTrafficPolicy', value: 'Both' });
  await expect
    .poll(async () => (await lastOf(page, 'a', 'lb-datapath:error'))?.['message'])
    .toBe('lb-datapath:set: value for externalTrafficPolicy must be Cluster or Local (got "Both")');
  await send('a', { type: 'lb-datapath:play' });
  await expect
    .poll(async () => (await lastOf(page, 'a', 'lb-datapath:step'))?.['playing'])
    .toBe(true);
  await send('a', { type: 'lb-datapath:pause' });
  await expect
    .poll(async () => (await lastOf(page, 'a', 'lb-datapath:step'))?.['playing'])
    .toBe(false);

  // z only obeys https://other.example and posts only there: this host hears nothing from it.
  await send('z', { type: 'lb-datapath:goTo', step: 4 });
  const z = frameOf(page, 'z');
  await expect(z.getByTestId('step-counter')).toHaveText('Before step 1 of 13');
  expect((await messages(page)).filter((m) => m.from === 'z')).toEqual([]);
});

test('?embed=1 on the app opens the embed view with the same query and scene', async ({ page }) => {
  const hash = await localHash(page);
  await page.goto(`/?embed=1&controls=none${hash}`);
  await expect(page).toHaveURL(/\/embed\.html\?embed=1&controls=none#s=/);
  await expect(page.getByTestId('embed')).toHaveAttribute('data-controls', 'none');
  await expect(page.getByRole('group', { name: 'Playback' })).toHaveCount(0);
  await expect(page.getByTestId('topology')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('narration')).not.toContainText('Before the first packet');
});

test('bad options are named and the defaults used; axe finds nothing in the embed', async ({
  page,
}) => {
  await page.goto('/embed.html?theme=blue&step=x&origin=docs.example.test');
  const problems = page.getByRole('status').filter({ hasText: 'theme=blue' });
  await expect(problems).toContainText(
    'theme=blue is not light, dark, contrast or auto: using auto.',
  );
  await expect(problems).toContainText(
    "step=x is not a step number (0, 1, 2, …): showing the link's step.",
  );
  await expect(problems).toContainText(
    'origin=docs.example.test is not an origin such as https://docs.example.com: ignored.',
  );
  await expect(problems).toContainText(
    'No origin in origin= could be read: no page may drive this embed or hear its messages.',
  );
  await expect(page.getByTestId('topology')).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
  await page.goto('/embed.html?theme=dark&step=4');
  await expect(page.getByTestId('step-counter')).toHaveText('Step 4 of 13');
  const dark = await new AxeBuilder({ page }).analyze();
  expect(dark.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
});

test('one docs page with two iframes and two <lb-datapath> elements: each on its own', async ({
  page,
  baseURL,
}) => {
  const hash = await localHash(page);
  // The docs site serves its own copy of the element's file (as a docs author would vendor it).
  await page.route(`${HOST}/embed/**`, async (route) =>
    route.fulfill({
      response: await route.fetch({
        url: route
          .request()
          .url()
          .replace(HOST, baseURL ?? ''),
      }),
    }),
  );
  await openHost(
    page,
    `<script type="module" src="/embed/lb-datapath.js"></script>
<iframe id="a" title="LoadBalancer data path: Cluster" src="${baseURL}/embed.html?frame=a&controls=minimal" width="100%" height="200" style="border:0"></iframe>
<iframe id="b" title="LoadBalancer data path: Local" src="${baseURL}/embed.html?frame=b&step=2${hash}" width="100%" height="200" style="border:0"></iframe>
<lb-datapath id="e1" controls="minimal"><a href="/">Open this scene</a></lb-datapath>
<lb-datapath id="e2" theme="dark" step="2" state="${hash}"></lb-datapath>
<script>
  window.elementEvents = [];
  for (const t of ['lb-datapath:ready', 'lb-datapath:step'])
    document.addEventListener(t, (e) => window.elementEvents.push([e.target.id, t, e.detail]));
</script>`,
  );
  const e1 = page.locator('#e1');
  const e2 = page.locator('#e2');
  // Lazy: mounted when scrolled near the viewport.
  await e2.scrollIntoViewIfNeeded();
  await expect(e1.getByTestId('step-counter')).toHaveText('Before step 1 of 13');
  await expect(e2.getByTestId('step-counter')).toHaveText(/^Step 2 of \d+$/);
  await expect(e2.getByTestId('embed')).toHaveAttribute('data-theme', 'dark');
  // The snippet's fallback link (for a page where the module never loads) is hidden once it has.
  await expect(page.locator('#e1 > a')).toBeHidden();
  await expect.poll(async () => (await lastOf(page, 'b', 'lb-datapath:ready'))?.['step']).toBe(2);
  await expect.poll(() => lastOf(page, 'a', 'lb-datapath:resize')).toBeTruthy();

  // Styles stay inside: the host's text keeps its own font, the element's drawing has its own.
  const fonts = await page.evaluate(() => ({
    host: getComputedStyle(document.querySelector('h1')!).fontFamily,
    inside: getComputedStyle(document.querySelector('#e1')!.shadowRoot!.querySelector('.app')!)
      .fontFamily,
  }));
  expect(fonts.inside).toContain('system-ui');
  expect(fonts.host).not.toContain('system-ui');
  // Unique ids: two drawings, no id twice in the page's shadow roots together.
  const ids = await page.evaluate(() =>
    ['#e1', '#e2'].flatMap((s) =>
      [...document.querySelector(s)!.shadowRoot!.querySelectorAll('[id]')].map((el) => el.id),
    ),
  );
  expect(ids.length).toBeGreaterThan(4);
  expect(new Set(ids).size).toBe(ids.length);

  // Independent: Next in e1 moves e1 only; its event says so. e1 is ready first (its event),
  // and on a loaded machine a press that lands while it re-renders is pressed again — only
  // while the counter still reads "Before step 1", so it never steps twice.
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { elementEvents: unknown[][] }).elementEvents.some(
          (e) => e[0] === 'e1' && e[1] === 'lb-datapath:ready',
        ),
      ),
    )
    .toBe(true);
  const counter = e1.getByTestId('step-counter');
  await expect(async () => {
    if ((await counter.textContent())?.startsWith('Before'))
      await e1.getByRole('button', { name: 'Next step' }).click();
    await expect(counter).toHaveText('Step 1 of 13', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(e2.getByTestId('step-counter')).toHaveText(/^Step 2 of \d+$/);
  const events = await page.evaluate(
    () => (window as unknown as { elementEvents: unknown[][] }).elementEvents,
  );
  expect(events).toContainEqual(['e1', 'lb-datapath:step', { step: 1, steps: 13, playing: false }]);
  // Each element says it is ready before any step, as a frame does.
  for (const id of ['e1', 'e2'])
    expect(events.find((e) => e[0] === id)?.[1], `${id}'s first event`).toBe('lb-datapath:ready');

  // Keys: only the focused element steps, and the host never hears the keys it used; the
  // keys it does not use reach the host page (a deck keeps PageDown).
  await page.keyboard.press('ArrowRight');
  await expect(e1.getByTestId('step-counter')).toHaveText('Step 2 of 13');
  await expect(e2.getByTestId('step-counter')).toHaveText(/^Step 2 of \d+$/);
  await page.keyboard.press('PageDown');
  const hostKeys = await page.evaluate(
    () => (window as unknown as { hostKeys: string[] }).hostKeys,
  );
  expect(hostKeys).toContain('PageDown');
  expect(hostKeys).not.toContain('ArrowRight');
  // The iframes did not move.
  await expect(frameOf(page, 'a').getByTestId('step-counter')).toHaveText('Before step 1 of 13');
  await expect(frameOf(page, 'b').getByTestId('step-counter')).toHaveText(/^Step 2 of \d+$/);

  // theme="auto" follows the docs site's own switch (Docusaurus: html[data-theme]), live.
  await expect(e1.getByTestId('embed')).toHaveAttribute('data-theme', 'system');
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  await expect(e1.getByTestId('embed')).toHaveAttribute('data-theme', 'dark');
  await page.evaluate(() => document.body.setAttribute('data-md-color-scheme', 'default'));
  await page.evaluate(() => document.documentElement.removeAttribute('data-theme'));
  await expect(e1.getByTestId('embed')).toHaveAttribute('data-theme', 'light');
  await expect(e1.getByTestId('step-counter')).toHaveText('Step 2 of 13'); // same view, kept

  // The element's methods drive it as the messages drive a frame.
  await e2.evaluate((el) => (el as unknown as { goTo(n: number): void }).goTo(1));
  await expect(e2.getByTestId('step-counter')).toHaveText(/^Step 1 of \d+$/);
  const results = await new AxeBuilder({ page }).include('#e1').include('#e2').analyze();
  expect(
    results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`)),
  ).toEqual([]);
});

test('printed, the embed is a still frame with its words: the drawing, no buttons', async ({
  page,
}) => {
  await page.goto('/embed.html?step=4');
  await expect(page.getByTestId('step-counter')).toHaveText('Step 4 of 13');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('topology')).toBeVisible();
  await expect(page.getByTestId('narration')).toContainText('kube-proxy picks an endpoint');
  await expect(page.getByRole('group', { name: 'Playback' })).toBeHidden();
  await expect(page.getByRole('link', { name: /Open in the full app/ })).toBeHidden();
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
});
