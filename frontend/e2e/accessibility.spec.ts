import type AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { demoShipmentWithStatus } from './support/demo';
import { waitForHydration } from './support/hydrated';
import { axeOn } from './support/page-checks';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

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

/** The serious or critical findings of `axe` on the page, each named with its route and theme. */
async function seriousFindings(axe: AxeBuilder, path: string, theme: 'light' | 'dark'): Promise<string[]> {
  const { violations } = await axe.analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${path} (${theme}): ${violation.id} (${violation.impact}) ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

// Every route in both themes, each route loaded once: axe reads it in light with every rule, then
// in dark with the rules of colour (only colours differ between the themes), the `dark` class on
// <html> being all the site's dark theme is (lib/theme.ts; that a dark system preference sets it
// is in layout.spec.ts). The routes are shared out between tests that run side by side.
const PARTS = 2;
test.describe.configure({ mode: 'parallel' });

for (let part = 0; part < PARTS; part += 1) {
  test(`axe finds no serious or critical violation on any public route, light and dark (part ${part + 1} of ${PARTS})`, async ({ browser }) => {
    test.setTimeout(90_000);
    // Reduced motion: axe measures colours after the entrance animations, not halfway through.
    const context = await browser.newContext({ colorScheme: 'light', reducedMotion: 'reduce' });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of publicRoutes().filter((_, index) => index % PARTS === part)) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.page-spinner, .track-loading')).toHaveCount(0);
      await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
      found.push(...(await seriousFindings(axeOn(page).withTags(TAGS), path, 'light')));

      await page.evaluate(() => document.documentElement.classList.add('dark'));
      // The theme's colours change with a (reduced: 0.01 ms) transition: axe reads them once it ended.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState === 'finished'));
      const dark = axeOn(page).withTags(TAGS).withRules(['color-contrast', 'link-in-text-block']);
      found.push(...(await seriousFindings(dark, path, 'dark')));
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
