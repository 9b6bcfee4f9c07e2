import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { demoShipmentWithStatus } from './support/demo';
import { keepScreenshot } from './support/visual';

const OUT_DIR = join(import.meta.dirname, '..', 'test-results', 'screenshots');

const VIEWPORTS = [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
];

function routes(): Array<{ name: string; path: string }> {
  return [
    { name: 'home', path: '/' },
    { name: 'about', path: '/about' },
    { name: 'services', path: '/services' },
    { name: 'contact', path: '/contact' },
    { name: 'track', path: '/track' },
    { name: 'track-result', path: `/track/${demoShipmentWithStatus('in_transit').trackingNumber}` },
    { name: 'track-not-found', path: '/track/PSE000000000' },
    { name: 'admin-login', path: '/administration_and_development/login' },
    { name: 'privacy', path: '/privacy' },
    { name: 'terms', path: '/terms' },
    { name: 'faq', path: '/faq' },
    { name: 'login-redirect', path: '/login' },
    { name: '404', path: '/no-such-page' },
  ];
}

test('full-page screenshots of every route at 375 and 1280 px, with no console error and nothing from another host', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  mkdirSync(OUT_DIR, { recursive: true });
  const origin = new URL(baseURL!).origin;
  for (const viewport of VIEWPORTS) {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        colorScheme: theme,
        reducedMotion: 'reduce',
      });
      const page = await context.newPage();
      const foreign: string[] = [];
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      page.on('console', (message) => {
        // The browser reports the 404 page's own status (HTTP 404, as it should be) as an error.
        const expected404 = page.url().endsWith('/no-such-page') && message.text().includes('status of 404');
        if (message.type() === 'error' && !expected404) errors.push(`${page.url()}: ${message.text()}`);
      });
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
      });
      for (const route of routes()) {
        // Dark screenshots of two pages are enough to review the dark palette.
        if (theme === 'dark' && !['home', 'track-result'].includes(route.name)) continue;
        await page.goto(route.path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (route.name === 'track-result') {
          await expect(page.getByRole('button', { name: 'Copy tracking number' })).toBeVisible();
        }
        if (route.name === 'track-not-found') {
          await expect(page.getByTestId('track-error')).toBeVisible();
        }
        await expect(page.locator('.page-spinner')).toHaveCount(0);
        // No horizontal scrolling at this width.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${route.path} overflows at ${viewport.width}px`).toBeLessThanOrEqual(0);
        const suffix = theme === 'dark' ? '-dark' : '';
        await keepScreenshot(page, join(OUT_DIR, `${route.name}-${viewport.width}${suffix}.png`), { fullPage: true });
      }
      expect(foreign, 'requests to other hosts').toEqual([]);
      // Includes Content-Security-Policy violations, which the browser reports as console errors.
      expect(errors, 'errors in the browser console').toEqual([]);
      await context.close();
    }
  }
});
