// Pages that update themselves: an open tracking page shows a new status, place and history entry
// within a second of the change, without a reload, keeping its focus and scroll (390 px), and
// catches up after the network came back (1280 px), after the gateway restarted and when shown
// again after a time out of sight (its watch let go meanwhile); a verified party's full view stays full, and
// a shipment deleted meanwhile reads as an unknown number; a signed-in admin's shipments list, the
// dashboard figures, a shipment's View dialog and the exceptions queue follow the changes made
// elsewhere (1280 px). Screenshots (E2E_SCREENSHOTS=1) in both themes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ShipmentStatus } from '../src/gen/logistics/v1/shipment_pb';
import { adminEmail, adminPassword, searchShipments, signIn } from './support/admin';
import { siteUrl } from './support/env';
import { freePort, startGateway, type RunningGateway } from './support/gateway';
import { adminRpc, type Clients } from './support/rpc';
import { expectFiguresReadAfter, figure } from './support/figures';
import { definition } from './support/track-page';
import { createShipment, moveShipment, partiesFor, VERIFY_BUTTON, VERIFY_LABEL } from './support/tracking';
import { keepScreenshot, SCREENSHOTS } from './support/visual';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const WATCH_PATH = '/logistics.v1.ShipmentService/WatchShipment';
const CHANGES_PATH = '/logistics.v1.ShipmentService/WatchShipmentChanges';

const RUN = Date.now().toString(36).slice(-6);
let serial = 0;
function tag(): string {
  serial += 1;
  return `live${RUN}${serial}`;
}

// Each test makes its own shipments.
test.describe.configure({ mode: 'parallel' });

let admin: Clients;
let request: APIRequestContext;
test.beforeAll(async ({ playwright }) => {
  request = await playwright.request.newContext({ baseURL: siteUrl() });
  admin = await adminRpc(request, siteUrl());
});

test.afterAll(async () => {
  await request.dispose();
});

/** Marks the loaded document: a reload or a navigation would lose the mark. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { liveMark: string }).liveMark = 'kept'));
}

async function expectSameDocument(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { liveMark?: string }).liveMark)).toBe('kept');
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
}

/** The page (or part of it) in both themes, into test-results/screenshots. */
async function shoot(page: Page, name: string, target: Page | Locator = page, fullPage = false): Promise<void> {
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The sign-in toast would hide what the picture is for.
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1_000 }).catch(() => {});
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(target, `${SCREENSHOTS}/live-${name}-${width}-${theme}.png`, { fullPage });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** The WatchShipment calls the page has opened so far. */
function watchCalls(page: Page): { count: () => number } {
  let calls = 0;
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === WATCH_PATH) calls += 1;
  });
  return { count: () => calls };
}

async function openTrackingPage(page: Page, trackingNumber: string): Promise<Locator> {
  await page.goto(`/track/${trackingNumber}`);
  await expect(page.getByRole('heading', { level: 2, name: trackingNumber })).toBeVisible();
  return page.locator('.track-result');
}

/** A new shipment's tracking page at this size, with its watch open. */
async function watchNewShipment(page: Page, viewport: { width: number; height: number }) {
  await page.setViewportSize(viewport);
  const run = tag();
  const shipment = await createShipment(admin, run);
  const watches = watchCalls(page);
  const result = await openTrackingPage(page, shipment.trackingNumber);
  await expect.poll(watches.count).toBeGreaterThanOrEqual(1);
  return { run, shipment, watches, result };
}

test.describe('a tracking page left open', () => {
  test('shows a new status, place and history entry within a second, in place', async ({ page }) => {
    await page.setViewportSize(PHONE);
    const run = tag();
    const shipment = await createShipment(admin, run);
    const watches = watchCalls(page);
    const result = await openTrackingPage(page, shipment.trackingNumber);
    await expect(result.locator('.result-status')).toContainText('Pending');
    // The watch is open before the change (its first message is the shipment as it is).
    await expect.poll(watches.count).toBeGreaterThanOrEqual(1);
    await markDocument(page);
    await expect(page.locator('#result-heading')).toBeFocused();
    const scrolled = await page.evaluate(() => window.scrollY);

    const remark = `Left the Lisbon hub ${run}`;
    await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Porto, Portugal', remark);
    await expect(result.locator('.result-status')).toContainText('In Transit', { timeout: 1_500 });
    await expect(definition(result, 'Current Location')).toHaveText('Porto, Portugal', { timeout: 1_500 });
    await expect(result.getByText(remark)).toBeVisible({ timeout: 1_500 });
    // Said politely to screen readers; the focus and the scroll stay where they were.
    await expect(page.getByTestId('track-live-status')).toHaveText('Status: In Transit');
    await expect(page.locator('#result-heading')).toBeFocused();
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThanOrEqual(2);
    await expectSameDocument(page);
    await shoot(page, 'track', page);
    await shoot(page, 'track-history', result.locator('section[aria-labelledby="history-heading"]'));
  });

  test('catches up after the network comes back', async ({ page, context }) => {
    const { run, shipment, watches, result } = await watchNewShipment(page, DESKTOP);
    await markDocument(page);

    await context.setOffline(true);
    const before = watches.count();
    const remark = `Held at customs ${run}`;
    await moveShipment(admin, shipment, ShipmentStatus.DELAYED, 'Madrid, Spain', remark);
    await context.setOffline(false);
    // Back online, the page opens its watch again at once and reads what it missed.
    await expect.poll(watches.count, { timeout: 5_000 }).toBeGreaterThan(before);
    await expect(result.locator('.result-status')).toContainText('Delayed', { timeout: 5_000 });
    await expect(definition(result, 'Current Location')).toHaveText('Madrid, Spain');
    await expect(result.getByText(remark)).toBeVisible();
    await expectSameDocument(page);
    await shoot(page, 'track-caught-up', result.locator('.result-summary'));
  });

  test('lets its watch go while out of sight, and catches up when shown', async ({ page }) => {
    const { run, shipment, watches, result } = await watchNewShipment(page, PHONE);
    await markDocument(page);

    // Another tab in front (headless pages are always in view: the page is told so).
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((value) => {
        Object.defineProperty(document, 'visibilityState', { value, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    const closed = page.waitForEvent('requestfailed', { predicate: (r) => new URL(r.url()).pathname === WATCH_PATH, timeout: 15_000 });
    await setVisibility('hidden');
    await closed;
    const before = watches.count();
    const remark = `Sorted in Utrecht ${run}`;
    await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Utrecht, Netherlands', remark);
    expect(watches.count(), 'nothing is opened while out of sight').toBe(before);

    await setVisibility('visible');
    await expect(result.locator('.result-status')).toContainText('In Transit', { timeout: 1_500 });
    await expect(result.getByText(remark)).toBeVisible();
    expect(watches.count()).toBe(before + 1);
    await expectSameDocument(page);
  });
});

test('a tracking page reconnects after the gateway restarts and shows what changed meanwhile', async ({ browser, playwright }) => {
  // A gateway of this test's own, stopped and started again on the same port and data.
  const data = mkdtempSync(join(tmpdir(), 'pse-e2e-live-'));
  const env = { ADMIN_EMAIL: adminEmail(), ADMIN_PASSWORD: adminPassword(), PORT: String(await freePort()) };
  let gateway: RunningGateway | undefined;
  const context = await browser.newContext({ viewport: PHONE });
  const jar = await playwright.request.newContext();
  try {
    gateway = await startGateway(env, data);
    const before = await adminRpc(jar, gateway.url);
    const run = tag();
    const shipment = await createShipment(before, run);
    const page = await context.newPage();
    const watches = watchCalls(page);
    await page.goto(`${gateway.url}/track/${shipment.trackingNumber}`);
    const result = page.locator('.track-result');
    await expect(result.locator('.result-status')).toContainText('Pending');
    await expect.poll(watches.count).toBeGreaterThanOrEqual(1);
    await markDocument(page);

    await gateway.stop();
    gateway = await startGateway(env, data);
    const after = await adminRpc(jar, gateway.url);
    const remark = `Back after the restart ${run}`;
    await moveShipment(after, shipment, ShipmentStatus.IN_TRANSIT, 'Coimbra, Portugal', remark);
    await expect(result.locator('.result-status')).toContainText('In Transit', { timeout: 10_000 });
    await expect(result.getByText(remark)).toBeVisible();
    await expectSameDocument(page);
  } finally {
    await context.close();
    await jar.dispose();
    await gateway?.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

test("a verified party's full view stays full as it updates; a deleted shipment reads as unknown", async ({ page }) => {
  const { run, shipment, watches, result } = await watchNewShipment(page, DESKTOP);
  await result.getByRole('textbox', { name: VERIFY_LABEL }).fill(partiesFor(run).receiver.email);
  await result.getByRole('button', { name: VERIFY_BUTTON }).click();
  await expect(result.getByRole('heading', { name: 'Packages' })).toBeVisible();
  // The watch opens again, with the access cookie the verification left.
  await expect.poll(watches.count).toBeGreaterThanOrEqual(2);
  await markDocument(page);

  const remark = `Handed to the courier ${run}`;
  await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, '7 Rua Nova, Porto, Portugal', remark);
  await expect(result.locator('.result-status')).toContainText('In Transit', { timeout: 1_500 });
  await expect(result.getByText(remark)).toBeVisible();
  // Still the full view: the packages and the parties' addresses.
  await expect(result.getByRole('heading', { name: 'Packages' })).toBeVisible();
  await expect(result.getByText(partiesFor(run).receiver.address)).toBeVisible();
  await expectSameDocument(page);

  await admin.shipments.deleteShipment({ id: shipment.id });
  await expect(page.getByTestId('track-error')).toHaveText('Shipment not found. Please check your tracking number and try again.');
  await expect(result).toHaveCount(0);
  await expectSameDocument(page);
});

test('staff screens follow changes made elsewhere', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const run = tag();
  // Placed where only this test's shipments match a search for the run.
  const at = { origin: `Braga ${run}, Portugal` };
  const moved = await createShipment(admin, run, at);
  const changes = page.waitForRequest((r) => new URL(r.url()).pathname === CHANGES_PATH);
  await signIn(page);
  await changes;
  await searchShipments(page, run);
  await expect(page.getByTestId('shipment-count')).toHaveText('1 shipment');
  await markDocument(page);
  const pending = page.getByRole('region', { name: 'Figures' }).getByRole('link', { name: /Pending/ }).locator('.figure-value');

  let created: Awaited<ReturnType<typeof createShipment>>;
  await test.step('a new shipment counts in the figures at once', async () => {
    // One more pending: the figure shows what a read sent after the shipment was made returned.
    await expectFiguresReadAfter(
      page,
      async () => (created = await createShipment(admin, run, at)),
      async () => (await pending.textContent())!,
      (statistics) => figure(statistics.statusCounts.find((c) => c.status === ShipmentStatus.PENDING)?.count ?? 0n),
    );
  });

  await test.step("a move shows in the list and in the shipment's open View dialog", async () => {
    const row = page.locator(`tr[data-tracking-number="${moved.trackingNumber}"]`);
    await row.getByRole('button', { name: `View shipment ${moved.trackingNumber}` }).click();
    const view = page.getByRole('dialog', { name: `Shipment ${moved.trackingNumber}` });
    await expect(view.getByRole('heading', { name: 'Summary' })).toBeVisible();
    const remark = `Out for delivery ${run}`;
    await moveShipment(admin, moved, ShipmentStatus.DELIVERED, 'Amsterdam, Netherlands', remark);
    await expect(view.locator('.details-head .status-badge')).toHaveText('Delivered', { timeout: 3_000 });
    await expect(view.getByText(remark)).toBeVisible();
    await shoot(page, 'view-dialog', view);
    await page.keyboard.press('Escape');
    await expect(view).toBeHidden();
    await expect(row.locator('.status-badge')).toHaveText('Delivered');
    // The list read again for its changed row brings the newcomer too (never on its own, so
    // rows do not move under the pointer).
    await expect(page.locator(`tr[data-tracking-number="${created.trackingNumber}"]`)).toBeVisible();
    await expect(page.getByTestId('shipment-count')).toHaveText('2 shipments');
    await expectSameDocument(page);
    // From the top: a full-page picture of a scrolled page paints the sticky header mid-way.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'list', page, true);
  });

  await test.step('the exceptions queue takes a shipment put on hold', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Exceptions', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Exceptions' })).toBeVisible();
    await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
    const held = await createShipment(admin, `${run}h`, at);
    await moveShipment(admin, held, ShipmentStatus.ON_HOLD, 'Customs, Lisbon', 'Awaiting the invoice');
    const row = page.locator(`tr[data-tracking-number="${held.trackingNumber}"]`);
    await expect(row).toBeVisible({ timeout: 5_000 });
    await expect(row.locator('td.exception-kind')).toHaveText('On hold');
    await expectSameDocument(page);
    await shoot(page, 'exceptions-row', row);
  });
});
