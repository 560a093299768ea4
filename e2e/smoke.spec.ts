import { SCREENSHOT_DIR, expect, test } from './fixtures';

test('the app loads with its title and no console errors or warnings', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.ok()).toBe(true);
  await expect(page).toHaveTitle(/LoadBalancer/);
  await expect(page.locator('#root')).not.toBeEmpty();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOT_DIR}/smoke-home.png`, fullPage: true });
});
