import { expect, test } from '@playwright/test';
import { demoShipmentWithStatus } from './support/demo';
import { waitForHydration } from './support/hydrated';

// The gateway serves dist/<route>/index.html through a redirect to "/<route>/" for now; the
// tests follow whatever URL it answers with.
const PRERENDERED: Array<[string, string, string]> = [
  ['/', 'Global Shipping & Logistics Solutions', 'What Our Clients Say'],
  ['/about', 'Our Story', 'Our Partnerships'],
  ['/services', 'Our Services', 'Additional Services'],
  ['/contact', 'Contact Us', 'Business Hours'],
  ['/privacy', 'Privacy Policy', 'Last updated:'],
  ['/terms', 'Terms of Service', '9. Contact Information'],
  ['/faq', 'Frequently Asked Questions', 'How do I track my package?'],
  ['/track', 'Track Your Shipment', 'Why Choose Our Tracking Service'],
];

test('prerendered pages show their content with JavaScript disabled', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [path, heading, text] of PRERENDERED) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading);
    await expect(page.getByText(text).first(), path).toBeVisible();
    expect(await page.title(), path).toContain('Parcel Shipping Express');
  }
  await context.close();
});

test('a prerendered page hydrates without errors and then works', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/faq');
  await waitForHydration(page);
  await page.locator('details.faq-item > summary').first().click();
  await expect(page.locator('details.faq-item[open]')).toHaveCount(1);
  await page.goto('/privacy');
  const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('visited pages, the precached pages and the last tracking result open offline', async ({ page, context }) => {
    const shipment = demoShipmentWithStatus('in_transit');
    await page.goto('/');
    // The service worker installs, precaches and takes control of the page: once, on the
    // loaded CI machine, that took over 15 s.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await page.goto(`/track/${shipment.trackingNumber}`);
    await expect(page.getByRole('button', { name: 'Copy tracking number' })).toBeVisible();
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Story');

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Story');
    await expect(page.getByText('Our Partnerships')).toBeVisible();

    // Never visited, but precached at install.
    await page.goto('/faq');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently Asked Questions');

    await page.goto(`/track/${shipment.trackingNumber}`);
    await expect(page.getByTestId('track-offline')).toContainText('You are offline');
    await expect(page.getByRole('main')).toContainText(shipment.trackingNumber);
    await context.setOffline(false);
  });
});
