import { test, expect } from '@playwright/test';

/**
 * framer-motion is loaded after the first paint (src/ui/motionFeatures.ts): until then the
 * packet is drawn at the end of its move with plain SVG. With motion allowed the animated parts
 * arrive; under `prefers-reduced-motion: reduce` every move is a jump, so they never load.
 */
test('the packet animates once framer-motion has loaded after first paint', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('packet')).toHaveAttribute('data-animated', 'true');
});

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('the packet is drawn statically and framer-motion is never fetched', async ({ page }) => {
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(r.url()));
    await page.goto('/');
    await expect(page.getByTestId('packet')).toHaveAttribute('data-animated', 'false');
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('packet')).toHaveAttribute('data-animated', 'false');
    expect(fetched.filter((u) => u.includes('motionFeaturesBundle'))).toEqual([]);
  });
});
