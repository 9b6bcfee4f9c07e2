// Defects of the admin screens found by a browser audit, each checked on a phone (390 px) and a
// desktop (1280 px): the View dialog's summary, the shipments list and Users page on a phone,
// toasts over the admin bar, and the casing of status, type, mode and payment labels.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN_PATH, SHIPMENT_SERVICE_PATH, USERS_PATH, adminEmail, openFilters, signIn } from './support/admin';
import { demoShipmentWithStatus, demoShipments } from './support/demo';
import { siteUrl } from './support/env';
import { adminRpc } from './support/rpc';
import { definition, toastWithText } from './support/track-page';
import { createShipment, partiesFor } from './support/tracking';
import { keepScreenshot } from './support/visual';

const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');
const RUN = Date.now().toString(36).slice(-6);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

// The labels every screen shows (title case, as the badges; payment modes as the spec names
// them), by the value the server stores.
const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  in_transit: 'In Transit',
  delivered: 'Delivered',
  delayed: 'Delayed',
  on_hold: 'On Hold',
};
const TYPE_LABELS: Record<string, string> = { standard: 'Standard', express: 'Express', economy: 'Economy' };
const MODE_LABELS: Record<string, string> = {
  land_shipping: 'Land Shipping',
  air_shipping: 'Air Shipping',
  sea_shipping: 'Sea Shipping',
};
const PAYMENT_LABELS: Record<string, string> = {
  bank_transfer: 'Bank Transfer',
  credit_card: 'Credit Card',
  cash: 'Cash',
  check: 'Check',
};

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, `${what} has a box`).not.toBeNull();
  return box!;
}

/** The element lies within the viewport's width (and, with `fully`, its height too). */
async function expectInViewport(page: Page, locator: Locator, what: string, fully = false): Promise<void> {
  const box = await boxOf(locator, what);
  const viewport = page.viewportSize()!;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  if (fully) {
    expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(viewport.height);
  }
}

async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

function shipmentsRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Shipments' });
}

/** Types into Search and waits for the list that answers it. */
async function search(page: Page, text: string): Promise<void> {
  // The answer to this very search: an earlier one still in flight must not count.
  const query = Buffer.from(text);
  const answered = page.waitForResponse(
    (r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`) && (r.request().postDataBuffer()?.includes(query) ?? false),
  );
  await page.getByLabel('Search', { exact: true }).fill(text);
  await answered;
  await expect(shipmentsRegion(page).getByRole('table')).toHaveAttribute('aria-busy', 'false');
}

for (const viewport of [PHONE, DESKTOP]) {
  const px = `${viewport.width} px`;

  test.describe(`admin screens at ${px}`, () => {
    test.use({ viewport });
    test.beforeAll(() => mkdirSync(SCREENSHOTS, { recursive: true }));

    test(`the View dialog's summary fits the dialog and shows title-case labels at ${px}`, async ({ page }) => {
      // Its current location is the demo data's longest.
      const shipment = demoShipmentWithStatus('on_hold');
      await signIn(page);
      await search(page, shipment.trackingNumber);
      await page.getByRole('button', { name: `View shipment ${shipment.trackingNumber}`, exact: true }).click();
      const view = page.getByRole('dialog', { name: `Shipment ${shipment.trackingNumber}` });
      await expect(view).toBeVisible();
      // Fetched again on open: measured once the fresh copy is shown.
      await expect(view.locator('.shipment-details')).toHaveAttribute('aria-busy', 'false');

      const widths = await view.evaluate((dialog) => {
        const body = dialog.querySelector('.modal-body')!;
        return { dialog: [dialog.scrollWidth, dialog.clientWidth], body: [body.scrollWidth, body.clientWidth] };
      });
      expect(widths.dialog[0], 'the dialog does not scroll sideways').toBeLessThanOrEqual(widths.dialog[1]);
      expect(widths.body[0], 'the dialog body does not scroll sideways').toBeLessThanOrEqual(widths.body[1]);

      const summary = view.getByRole('region', { name: 'Summary' });
      const values = summary.locator('dd');
      await expect(values).toHaveCount(await summary.locator('dt').count());
      for (let i = 0; i < (await values.count()); i += 1) {
        const value = values.nth(i);
        await value.scrollIntoViewIfNeeded();
        await expectInViewport(page, value, `summary value ${i + 1} "${(await value.textContent())?.trim()}"`, true);
      }

      // The summary must not depend on every other part fitting: with the packages table at its
      // full width (as when its phone layout was lost in a merge), the values stay on screen.
      await view.locator('.packages').evaluate((el: HTMLElement) => (el.style.containerType = 'normal'));
      for (const value of await values.all()) await expectInViewport(page, value, `"${await value.textContent()}" beside a wide table`);

      await expect(definition(summary, 'Status')).toHaveText(STATUS_LABELS[shipment.status]);
      await expect(view.locator('.details-head .status-badge')).toHaveText(STATUS_LABELS[shipment.status]);
      await expect(definition(summary, 'Type of Shipment')).toHaveText(TYPE_LABELS[shipment.typeOfShipment]);
      await expect(definition(summary, 'Shipment Mode')).toHaveText(MODE_LABELS[shipment.shipmentMode]);
      await expect(definition(summary, 'Payment Mode')).toHaveText(PAYMENT_LABELS[shipment.paymentMode]);
      await expect(definition(summary, 'Current Location')).toHaveText(shipment.currentLocation);
      await summary.scrollIntoViewIfNeeded();
      await keepScreenshot(page, join(SCREENSHOTS, `admin-phone-view-${viewport.width}.png`));
    });

    test(`the shipments list keeps every button on screen at ${px}`, async ({ page }) => {
      await signIn(page);
      const rows = shipmentsRegion(page).locator('tbody tr');
      await expect(rows.first()).toBeVisible();
      expect(await pageOverflow(page), 'the page does not scroll sideways').toBeLessThanOrEqual(0);
      const region = await shipmentsRegion(page).evaluate((el) => [el.scrollWidth, el.clientWidth]);
      if (viewport === PHONE) {
        expect(region[0], 'the list does not scroll sideways').toBeLessThanOrEqual(region[1]);
      }
      // A phone gets cards; a desktop keeps the table with its column headers.
      await expect(rows.first()).toHaveCSS('display', viewport === PHONE ? 'grid' : 'table-row');
      if (viewport === DESKTOP) {
        await expect(page.getByRole('columnheader', { name: 'Tracking Number' })).toBeVisible();
      }

      // The names and places of the first row's buttons, as a screen reader finds them.
      const first = await rows.first().getAttribute('data-tracking-number');
      for (const verb of ['View', 'Edit', 'Delete']) {
        await expect(rows.first().getByRole('button', { name: `${verb} shipment ${first}`, exact: true })).toBeVisible();
      }
      // Every row read in one go: the list reads itself again when a shown shipment changes, and
      // other tests' newcomers may then replace rows while they are checked one by one.
      const width = viewport.width;
      const shown = await rows.evaluateAll((trs) =>
        trs.map((tr) => ({
          number: tr.getAttribute('data-tracking-number')!,
          header: tr.querySelector('th[scope="row"]')?.textContent?.trim() ?? '',
          text: tr.textContent ?? '',
          route: tr.querySelector('.route-cell')?.textContent ?? '',
          badge: tr.querySelector('.status-badge')?.textContent?.trim() ?? '',
          buttons: [...tr.querySelectorAll('button')].map((b) => {
            const box = b.getBoundingClientRect();
            const style = getComputedStyle(b);
            return {
              name: b.getAttribute('aria-label') ?? '',
              left: box.left,
              right: box.right,
              visible: box.width > 0 && box.height > 0 && style.visibility !== 'hidden',
            };
          }),
        })),
      );
      expect(shown.length, 'the list shows shipments').toBeGreaterThan(0);
      const demo = new Map(demoShipments().map((s) => [s.trackingNumber, s]));
      for (const row of shown) {
        expect(row.header, 'the row is headed by its tracking number').toBe(row.number);
        const s = demo.get(row.number);
        if (s) {
          // The card (or row) shows the names, the route and the status badge.
          expect(row.text, `${row.number}: shipper`).toContain(s.shipperName);
          expect(row.text, `${row.number}: receiver`).toContain(s.receiverName);
          expect(row.route, `${row.number}: origin`).toContain(s.origin);
          expect(row.route, `${row.number}: destination`).toContain(s.destination);
          expect(row.badge, `${row.number}: status`).toBe(STATUS_LABELS[s.status]);
        }
        for (const verb of ['View', 'Edit', 'Delete']) {
          const button = row.buttons.find((b) => b.name === `${verb} shipment ${row.number}`);
          expect(button, `${verb} of ${row.number}`).toBeDefined();
          expect(button!.visible, `${verb} of ${row.number}: visible`).toBe(true);
          expect(button!.left, `${verb} of ${row.number}: left edge`).toBeGreaterThanOrEqual(0);
          expect(button!.right, `${verb} of ${row.number}: right edge`).toBeLessThanOrEqual(width);
        }
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(page, join(SCREENSHOTS, `admin-phone-list-${viewport.width}.png`));
    });

    test(`the Users page is styled and fits at ${px}`, async ({ page }) => {
      // A long address, as other tests' users have: it wraps, the table stays within the page.
      const email = `phone-${viewport.width}-${RUN}-dispatch-and-customer-relations@regional-logistics-example.com`;
      await signIn(page);
      // Straight to Users: its table must not depend on styles another page loaded.
      await page.goto(USERS_PATH);
      const form = page.getByRole('form', { name: 'Create User' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Name').fill('Pat Phone');
      await form.getByLabel('Role').selectOption({ label: 'User' });
      await form.getByLabel('Password').fill('phone-Passw0rd-2030');
      await form.getByRole('button', { name: 'Create User' }).click();
      await expect(toastWithText(page, 'User created successfully')).toBeVisible();

      const table = page.getByRole('region', { name: 'Users' });
      const row = table.locator(`tr[data-email="${email}"]`);
      await expect(row).toContainText('Pat Phone');
      await expect(table.getByRole('table')).toHaveCSS('border-collapse', 'collapse');
      await expect(row).toHaveCSS('display', viewport === PHONE ? 'grid' : 'table-row');
      expect(await pageOverflow(page), 'the page does not scroll sideways').toBeLessThanOrEqual(0);
      const region = await table.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(region[0], 'the list does not scroll sideways').toBeLessThanOrEqual(region[1]);
      // The address breaks to fit; a name keeps its words whole ("Administrator" on one line).
      const nameLines = await table
        .locator('tr', { hasText: adminEmail() })
        .getByText('Administrator', { exact: true })
        .evaluate((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return range.getClientRects().length;
        });
      expect(nameLines, 'a name is not broken inside a word').toBe(1);
      for (const part of [row.getByRole('rowheader'), row.getByText('Active', { exact: true })]) {
        await expectInViewport(page, part, `${await part.textContent()}`);
      }
      const disable = row.getByRole('button', { name: `Disable user ${email}` });
      await disable.scrollIntoViewIfNeeded();
      await expectInViewport(page, disable, 'Disable', true);
      await page.evaluate(() => window.scrollTo(0, 0));
      await keepScreenshot(page, join(SCREENSHOTS, `admin-phone-users-${viewport.width}.png`), { fullPage: true });
    });

    test(`search ignores accents and case both ways at ${px}`, async ({ page, request }) => {
      const admin = await adminRpc(request, siteUrl());
      const tag = `${RUN}w${viewport.width}`;
      const named = async (name: string) => {
        const run = `search-${tag}`;
        return createShipment(admin, run, { shipper: { ...partiesFor(run).shipper, name } });
      };
      const plain = await named(`Anna Muller ${tag}`);
      const accented = await named(`Jürgen Müller ${tag}`);
      await signIn(page);
      const rows = shipmentsRegion(page).locator('tbody tr');
      const numbers = async () => (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-tracking-number')))).sort();

      // Typed without the accent, the newest "Müller" comes first.
      await search(page, 'muller');
      await expect(rows.first()).toHaveAttribute('data-tracking-number', accented.trackingNumber);
      await expect(rows.first()).toContainText(`Jürgen Müller ${tag}`);
      // With the accent, in capitals, a shipment stored without it is found as well.
      await search(page, `MÜLLER ${tag}`);
      await expect(rows).toHaveCount(2);
      expect(await numbers()).toEqual([plain.trackingNumber, accented.trackingNumber].sort());
      await page.getByLabel('Search', { exact: true }).evaluate((input) => input.scrollIntoView({ block: 'start' }));
      await keepScreenshot(page, join(SCREENSHOTS, `admin-search-accents-${viewport.width}.png`));
      await search(page, `jurgen muller ${tag}`);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toHaveAttribute('data-tracking-number', accented.trackingNumber);
    });

    test(`no toast for a loaded list; toasts stay clear of the admin bar at ${px}`, async ({ page, request }) => {
      const admin = await adminRpc(request, siteUrl());
      const shipment = await createShipment(admin, `toast-${viewport.width}-${RUN}`);
      await signIn(page);
      // A fresh visit and a Refresh: the list loads without a toast.
      await page.reload();
      await expect(shipmentsRegion(page).locator('tbody tr').first()).toBeVisible();
      await expect(page.locator('.Toastify__toast')).toHaveCount(0);
      const refreshed = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
      await page.getByRole('button', { name: 'Refresh' }).click();
      await refreshed;
      await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
      await expect(page.locator('.Toastify__toast')).toHaveCount(0);

      await search(page, shipment.trackingNumber);
      const remove = page.getByRole('button', { name: `Delete shipment ${shipment.trackingNumber}`, exact: true });
      const toasts = page.locator('.Toastify__toast');
      const expectClear = async (where: string) => {
        const bar = await boxOf(page.locator('.admin-bar'), 'the admin bar');
        const header = await boxOf(page.getByRole('banner'), 'the header');
        for (const toast of await toasts.all()) {
          // A toast that closed on its own since it was listed, or is sliding out, covers nothing.
          const seen = await toast.boundingBox().catch(() => null);
          if (!seen) continue;
          const leaving = await toast.evaluate((t) => /-exit/.test(t.className)).catch(() => true);
          if (leaving) continue;
          const box = await boxOf(toast, 'a toast');
          const name = `"${await toast.textContent()}" (${where})`;
          expect(overlaps(box, bar), `${name} covers the admin bar`).toBe(false);
          expect(overlaps(box, header), `${name} covers the header`).toBe(false);
          await expectInViewport(page, toast, name);
        }
      };
      // The product's own confirm, named after the shipment.
      const confirmDelete = async () => {
        await remove.click();
        await page.getByRole('alertdialog', { name: /^Delete shipment PSE\d{9}\?$/ }).getByRole('button', { name: 'Delete' }).click();
      };

      // The delete fails: an error toast, the only one (no "Data loaded successfully" before it).
      await page.route(`**${SHIPMENT_SERVICE_PATH}DeleteShipment`, (route) => route.abort());
      await confirmDelete();
      await expect(toasts).toHaveText(['Failed to delete shipment']);
      await expect(async () => expectClear('error')).toPass({ timeout: 10_000 });
      await page.unroute(`**${SHIPMENT_SERVICE_PATH}DeleteShipment`);
      // Closed before the next phase: on a busy machine its exit, sliding off to the right, can
      // outlast that phase's checks of what stays on screen.
      await toasts.getByRole('button', { name: /close/i }).click();
      await expect(toasts).toHaveCount(0);

      // It succeeds: a success toast, at the top of the page and then scrolled so that the admin
      // bar is partly under the sticky header.
      await confirmDelete();
      await expect(toastWithText(page, 'Shipment deleted successfully')).toBeVisible();
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await expect(async () => expectClear('at the top')).toPass({ timeout: 10_000 });
      await keepScreenshot(page, join(SCREENSHOTS, `admin-phone-toasts-${viewport.width}.png`));
      await page.evaluate(() => window.scrollTo({ top: 60, behavior: 'instant' }));
      await expect(async () => expectClear('scrolled')).toPass({ timeout: 10_000 });
    });

    test(`status, type, mode and payment labels are title case everywhere at ${px}`, async ({ page }) => {
      await signIn(page);
      await expect(page).toHaveURL(new RegExp(`${ADMIN_PATH}$`));
      await openFilters(page);
      const status = page.getByLabel('Status', { exact: true });
      await expect(status.locator('option')).toHaveText(['All', ...Object.values(STATUS_LABELS)]);
      expect(await status.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
        'all',
        ...Object.keys(STATUS_LABELS),
      ]);

      // The badges of the first page say what the filter says.
      const badges = shipmentsRegion(page).locator('.status-badge');
      await expect(badges.first()).toBeVisible();
      for (const text of await badges.allTextContents()) expect(Object.values(STATUS_LABELS)).toContain(text);
      const answered = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
      await status.selectOption('in_transit');
      await answered;
      await expect(page).toHaveURL(/status=in_transit/);
      await expect(shipmentsRegion(page).getByRole('table')).toHaveAttribute('aria-busy', 'false');
      await expect(badges.first()).toHaveText('In Transit');
      for (const text of await badges.allTextContents()) expect(text).toBe('In Transit');

      // At 1280 px the sign-in toast lies over the page's top-right buttons until it closes:
      // close every toast first, as a user would, and take the pointer off them (a toast under
      // the pointer stays open).
      const toasts = page.locator('.Toastify__toast');
      await expect(async () => {
        for (const close of await toasts.getByRole('button', { name: 'close' }).all()) {
          await close.click({ timeout: 1_000 }).catch(() => undefined);
        }
        await page.mouse.move(0, 450);
        await expect(toasts).toHaveCount(0, { timeout: 2_000 });
      }).toPass({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Create Shipment' }).click();
      const create = page.getByRole('dialog', { name: 'Create Shipment' });
      const details = create.getByRole('group', { name: 'Shipment', exact: true });
      for (const [label, labels] of [
        ['Type of Shipment', TYPE_LABELS],
        ['Shipment Mode', MODE_LABELS],
        ['Payment Mode', PAYMENT_LABELS],
      ] as const) {
        const options = details.getByLabel(label).locator('option');
        await expect(options, label).toHaveText(['Select…', ...Object.values(labels)]);
        expect(await options.evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value)), label).toEqual([
          '',
          ...Object.keys(labels),
        ]);
      }
      await keepScreenshot(page, join(SCREENSHOTS, `admin-phone-create-${viewport.width}.png`));
      await create.getByRole('button', { name: 'Cancel' }).click();

      const first = shipmentsRegion(page).locator('tbody tr').first();
      const number = (await first.getAttribute('data-tracking-number'))!;
      await first.getByRole('button', { name: `Edit shipment ${number}`, exact: true }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Shipment Details' });
      const editStatus = edit.getByRole('group', { name: 'Tracking' }).getByLabel('Status');
      await expect(editStatus.locator('option')).toHaveText(Object.values(STATUS_LABELS));
      await expect(editStatus).toHaveValue('in_transit');
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await expect(edit).toBeHidden();
    });
  });
}
