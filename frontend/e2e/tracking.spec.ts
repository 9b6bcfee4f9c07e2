import { expect, test, type Page, type Request } from '@playwright/test';
import { demoShipments, demoShipmentWithStatus } from './support/demo';
import { siteUrl } from './support/env';
import { adminRpc } from './support/rpc';
import {
  COPIED_MESSAGE,
  EMPTY_INPUT_MESSAGE,
  MALFORMED_MESSAGE,
  NOT_FOUND_MESSAGE,
  SHIPMENT_SERVICE_PATH,
  expectShipmentShown,
  toastWithText,
  trackButton,
  trackError,
  trackingInput,
} from './support/track-page';
import { waitForHydration } from './support/hydrated';

function recordLookups(page: Page): Request[] {
  const lookups: Request[] = [];
  page.on('request', (request) => {
    if (request.url().includes(SHIPMENT_SERVICE_PATH)) lookups.push(request);
  });
  return lookups;
}

test.describe('Track page', () => {
  test('shows the intro sections before a search', async ({ page }) => {
    await page.goto('/track');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Why Choose Our Tracking Service' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible();
    await expect(page.locator('.steps > li')).toHaveCount(3);
    await expect(page.getByRole('heading', { name: /trusted partner/i })).toBeVisible();
    await expect(trackingInput(page)).toHaveValue('');
  });

  test('tracks a demo shipment typed into the form', async ({ page }) => {
    const shipment = demoShipmentWithStatus('in_transit');
    const lookups = recordLookups(page);
    await page.goto('/track');
    await waitForHydration(page);
    await trackingInput(page).fill(`   ${shipment.trackingNumber}  `);
    await trackButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
    await expectShipmentShown(page, shipment);
    await expect(trackingInput(page)).toHaveValue(shipment.trackingNumber);
    expect(lookups.length).toBeGreaterThanOrEqual(1);
    // The intro is replaced by the result.
    await expect(page.getByRole('heading', { name: 'Why Choose Our Tracking Service' })).toHaveCount(0);
  });

  test('a number typed while the page was still loading is the one looked up', async ({ page }) => {
    const shipment = demoShipmentWithStatus('delivered');
    // The page's scripts are held back until the number is typed into the prerendered box.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/**/*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/track', { waitUntil: 'commit' });
    await trackingInput(page).fill(shipment.trackingNumber);
    release();
    await waitForHydration(page);
    await expect(trackingInput(page)).toHaveValue(shipment.trackingNumber);
    await trackButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
    await expectShipmentShown(page, shipment);
  });

  test('looks a deep link up at once, for a demo shipment in each status', async ({ page }) => {
    const statuses = ['pending', 'in_transit', 'delivered', 'delayed', 'on_hold'];
    expect(new Set(demoShipments().map((s) => s.status))).toEqual(new Set(statuses));
    // Every shipment's page is built alike: one of each status shows each kind of result.
    for (const shipment of statuses.map(demoShipmentWithStatus)) {
      await page.goto(`/track/${shipment.trackingNumber}`);
      await expect(trackingInput(page)).toHaveValue(shipment.trackingNumber);
      await expectShipmentShown(page, shipment);
    }
  });

  test('signed-in staff see every field of a demo shipment', async ({ page }) => {
    await adminRpc(page.context().request, siteUrl());
    for (const status of ['in_transit', 'delivered']) {
      const shipment = demoShipmentWithStatus(status);
      await page.goto(`/track/${shipment.trackingNumber}`);
      await expectShipmentShown(page, shipment, 'full');
    }
  });

  test('disables the Track button while looking up', async ({ page }) => {
    const shipment = demoShipments()[0];
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    await page.route(`**${SHIPMENT_SERVICE_PATH}**`, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`/track/${shipment.trackingNumber}`);
    await expect(trackButton(page)).toBeDisabled();
    release();
    await expect(page.getByRole('heading', { level: 2, name: shipment.trackingNumber })).toBeVisible();
    await expect(trackButton(page)).toBeEnabled();
  });

  test('copies the tracking number, with a toast and a check for 2 s', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const shipment = demoShipmentWithStatus('delivered');
    await page.goto(`/track/${shipment.trackingNumber}`);
    const copy = page.getByRole('button', { name: 'Copy tracking number' });
    await expect(copy.locator('svg[data-icon="copy"]')).toBeVisible();
    await copy.click();
    await expect(toastWithText(page, COPIED_MESSAGE)).toBeVisible();
    await expect(copy.locator('svg[data-icon="check"]')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shipment.trackingNumber);
    // The check goes back to the copy icon after 2 s.
    await expect(copy.locator('svg[data-icon="copy"]')).toBeVisible({ timeout: 5_000 });
    await expect(copy.locator('svg[data-icon="check"]')).toHaveCount(0);
  });

  test('an empty or blank number shows a toast and sends no request', async ({ page }) => {
    const lookups = recordLookups(page);
    await page.goto('/track');
    // Before the script takes over, a tap sends the form itself (an empty box: a reload).
    await waitForHydration(page);
    await trackButton(page).click();
    await expect(toastWithText(page, EMPTY_INPUT_MESSAGE)).toBeVisible();
    await trackingInput(page).fill('   \t ');
    await trackingInput(page).press('Enter');
    await expect(toastWithText(page, EMPTY_INPUT_MESSAGE)).toBeVisible();
    await expect(page).toHaveURL(/\/track$/);
    await expect(trackError(page)).toHaveCount(0);
    expect(lookups).toHaveLength(0);
  });

  // Each is looked up as the box normalises it (no spaces, upper case, no punctuation around it);
  // an unknown number is not found, anything else is told what a number looks like; said once.
  for (const [input, normalised, message] of [
    ['PSE000000000', 'PSE000000000', NOT_FOUND_MESSAGE],
    ['{"$gt":""}', 'GT', MALFORMED_MESSAGE],
    ['^PSE', 'PSE', MALFORMED_MESSAGE],
    ['pse%', 'PSE', MALFORMED_MESSAGE],
    ["' OR '1'='1", "OR'1'='1", MALFORMED_MESSAGE],
  ]) {
    test(`an unknown or malformed number is refused: ${input}`, async ({ page }) => {
      const lookups = recordLookups(page);
      await page.goto('/track');
      await waitForHydration(page);
      await trackingInput(page).fill(input);
      await trackButton(page).click();
      await expect(trackError(page)).toHaveText(message);
      await expect(page.getByRole('button', { name: 'Copy tracking number' })).toHaveCount(0);
      await expect(trackingInput(page)).toHaveValue(normalised);
      expect(lookups.length).toBeGreaterThanOrEqual(1);
      await expect(page.locator('.Toastify__toast')).toHaveCount(0);
    });
  }

  test('punctuation alone is no number: a toast and no request', async ({ page }) => {
    const lookups = recordLookups(page);
    await page.goto('/track');
    await waitForHydration(page);
    await trackingInput(page).fill('.*');
    await trackButton(page).click();
    await expect(toastWithText(page, EMPTY_INPUT_MESSAGE)).toBeVisible();
    await expect(page).toHaveURL(/\/track$/);
    expect(lookups).toHaveLength(0);
  });

  test('an unknown deep link is not found', async ({ page }) => {
    await page.goto('/track/PSE000000000');
    await expect(trackError(page)).toHaveText(NOT_FOUND_MESSAGE);
  });

  test('searching again from a failed lookup finds the shipment', async ({ page }) => {
    const shipment = demoShipmentWithStatus('on_hold');
    await page.goto('/track/PSE000000000');
    await expect(trackError(page)).toHaveText(NOT_FOUND_MESSAGE);
    await trackingInput(page).fill(shipment.trackingNumber.toLowerCase());
    await trackButton(page).click();
    await expect(page.getByRole('heading', { level: 2, name: shipment.trackingNumber })).toBeVisible();
    await expect(trackError(page)).toHaveCount(0);
  });

  test('is usable with the keyboard alone', async ({ page }) => {
    const shipment = demoShipmentWithStatus('delayed');
    await page.goto('/track');
    await waitForHydration(page);
    await trackingInput(page).focus();
    await page.keyboard.type(shipment.trackingNumber);
    await page.keyboard.press('Tab');
    await expect(trackButton(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: shipment.trackingNumber })).toBeVisible();
  });
});
