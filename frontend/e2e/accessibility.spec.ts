import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { demoShipmentWithStatus } from './support/demo';
import { waitForHydration } from './support/hydrated';

function publicRoutes(): string[] {
  return [
    '/',
    '/about',
    '/services',
    '/contact',
    '/track',
    `/track/${demoShipmentWithStatus('delivered').trackingNumber}`,
    '/privacy',
    '/terms',
    '/faq',
    '/ship-with-us',
    '/quote',
    '/administration_and_development/login',
    '/no-such-page',
  ];
}

for (const theme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violation on any public route (${theme})`, async ({ browser }) => {
    test.setTimeout(90_000);
    // Reduced motion: axe measures colours after the entrance animations, not halfway through.
    const context = await browser.newContext({ colorScheme: theme, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of publicRoutes()) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.page-spinner, .track-loading')).toHaveCount(0);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
      const axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
      // Only colours differ between the themes: in dark, check just those (it halves the run).
      if (theme === 'dark') axe.withRules(['color-contrast', 'link-in-text-block']);
      const { violations } = await axe.analyze();
      for (const violation of violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') {
          found.push(`${path}: ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
        }
      }
    }
    expect(found).toEqual([]);
    await context.close();
  });
}

test.describe('keyboard only', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('skip link, menu, carousel and FAQ work without a mouse', async ({ page }) => {
    await page.goto('/about');
    await waitForHydration(page);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Home' })).toBeFocused();
    await page.keyboard.press('Tab');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toBeFocused();
    await page.keyboard.press('Escape');

    const carousel = page.getByRole('region', { name: 'Client testimonials' });
    await carousel.getByRole('button', { name: 'Next slide' }).focus();
    await page.keyboard.press('Enter');
    await expect(carousel.locator('.carousel-slide:not([hidden])')).toHaveAttribute('aria-label', '2 of 3');
    await page.keyboard.press('Space');
    await expect(carousel.locator('.carousel-slide:not([hidden])')).toHaveAttribute('aria-label', '3 of 3');

    await page.getByRole('link', { name: 'FAQ' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/faq$/);
    await page.locator('details.faq-item > summary').first().focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('details.faq-item').first()).toHaveAttribute('open', '');
  });
});
