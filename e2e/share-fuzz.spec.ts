/**
 * A bounded fuzz of share links in the browser (issue 15 points 7 and 8): 300 generated `#s=`
 * links — valid views with one field replaced by something hostile, views whose node and Pod
 * names hold `"`, `]`, `>` and markup, truncated links and random text — opened as a person
 * opens them (the fragment changes; 24 of them as a fresh load). After each one the page shows
 * a view (the stage or the time view), never a blank page; what cannot be opened says so in the
 * notice; and nothing reaches the console (the fixtures fail the test on any console error or
 * uncaught exception). Deterministic: fast-check's seed is fixed.
 */
import fc from 'fast-check';
import LZString from 'lz-string';
import type { Page } from '@playwright/test';
import { canonicalObjects, DEFAULT_SCENE, DEFAULT_WALKTHROUGH } from '../src/model';
import type { ScenarioObject } from '../src/model';
import { INITIAL_TIME } from '../src/store/timelineSlice';
import { encodeState } from '../src/store/share/link';
import type { SharedState } from '../src/store/share/link';
import { expect, test } from './fixtures';

const compress = LZString.compressToEncodedURIComponent;
const scene = { ...DEFAULT_SCENE, ...DEFAULT_WALKTHROUGH.steps[0]!.scene };

const HOSTILE_NAMES = ['a"b', 'n]1', 'x><img src=x onerror=alert(1)>', "o'k", 'a b', '\\', '-1'];

/** The canonical cluster with node and Pod names replaced by hostile ones (links skip validation). */
function hostileObjects(name: string): ScenarioObject[] {
  const text = JSON.stringify(canonicalObjects()).split('"node-1"').join(JSON.stringify(name));
  return JSON.parse(text) as ScenarioObject[];
}

const base = (over: Partial<SharedState> = {}): SharedState => ({
  v: 1,
  scene,
  step: 2,
  story: 0,
  ...over,
});

const timeView = (objects?: ScenarioObject[]): SharedState =>
  base({
    ...(objects ? { objects } : {}),
    time: {
      view: 'time',
      controller: 'cloud',
      events: [{ at: 30_000, kind: 'fail-node', node: 'node-1' }],
      healthCheck: {},
      workload: INITIAL_TIME.workload,
      simMs: 45_000,
    },
  });

const anyJson = fc.jsonValue({ maxDepth: 3 });
const hostileValue = fc.oneof(
  anyJson,
  fc.constantFrom(...HOSTILE_NAMES),
  fc.constantFrom(-1, 1e300, Number.MAX_SAFE_INTEGER + 2, 0.5, ''),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
const FIELDS = ['v', 'scene', 'step', 'story', 'node', 'objects', 'time'] as const;

/** One generated fragment (`#s=…`). */
const link: fc.Arbitrary<string> = fc.oneof(
  // A valid view with one top-level field replaced.
  fc
    .tuple(fc.constantFrom(...FIELDS), hostileValue, fc.boolean())
    .map(([field, value, time]) =>
      encodeState({ ...(time ? timeView() : base()), [field]: value } as SharedState, compress),
    ),
  // A valid time view with a hostile event or setting.
  fc
    .tuple(fc.constantFrom('events', 'healthCheck', 'workload', 'simMs'), hostileValue)
    .map(([field, value]) => {
      const view = timeView();
      return encodeState(
        { ...view, time: { ...view.time, [field]: value } } as SharedState,
        compress,
      );
    }),
  // Hostile names in the objects (a view written by hand or by another tool).
  fc
    .tuple(fc.constantFrom(...HOSTILE_NAMES), fc.boolean())
    .map(([name, time]) =>
      encodeState(
        time ? timeView(hostileObjects(name)) : base({ objects: hostileObjects(name) }),
        compress,
      ),
    ),
  // A valid link cut short, or random text.
  fc
    .tuple(fc.boolean(), fc.integer({ min: 3, max: 200 }))
    .map(([time, cut]) => encodeState(time ? timeView() : base(), compress).slice(0, cut)),
  fc.string({ maxLength: 80 }).map((s) => `#s=${encodeURIComponent(s)}`),
);

const LINKS = fc.sample(link, { numRuns: 300, seed: 15_7 });

/** Some view is on screen: the stage, or the time view. */
async function expectAView(page: Page): Promise<void> {
  await expect(
    page.locator('[data-testid="stage"], [data-testid="time-view"]').first(),
  ).toBeVisible();
  await expect(page.locator('#root')).not.toBeEmpty();
}

test.describe('share links, fuzzed', () => {
  test.setTimeout(240_000);

  test('300 generated links opened in place: always a view, never a console error', async ({
    page,
  }) => {
    await page.goto('/');
    await expectAView(page);
    for (const [i, hash] of LINKS.entries()) {
      await page.evaluate((h) => {
        window.location.hash = h;
      }, hash);
      await expectAView(page);
      // Every few links, the keyboard walks the health lanes (names looked up as data).
      if (i % 25 === 0 && (await page.getByTestId('health-lanes').isVisible())) {
        const lane = page.locator('[data-lane]').first();
        await lane.focus();
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowUp');
      }
    }
  });

  test('24 of them as a fresh load', async ({ page }) => {
    for (const hash of LINKS.filter((_, i) => i % 12 === 0)) {
      await page.goto(`/${hash.startsWith('#') ? hash : `#${hash}`}`);
      await expectAView(page);
    }
  });

  test('a node named with a quote and a bracket: its health lane takes the keyboard', async ({
    page,
  }) => {
    await page.goto(`/${encodeState(timeView(hostileObjects('a"]b')), compress)}`);
    const lanes = page.getByTestId('health-lanes');
    await expect(lanes).toBeVisible();
    const first = page.locator('[data-lane]').first();
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.locator('[data-lane]').nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(first).toBeFocused();
    await expect(lanes).toContainText('a"]b');
  });
});
