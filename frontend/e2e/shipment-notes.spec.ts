// Staff's internal notes and failed delivery attempts, at 1280 px (and their layout at 390 px): an admin adds notes in a
// shipment's View dialog (newest first, author and time, line breaks kept; one too long is refused
// by the server under the text); the notes appear neither on the public tracking page (limited or
// verified) nor in the customer portal; an agent's update recording a failed attempt is refused
// with Delivered and otherwise shows in the staff history and on the tracking page, in English and
// Arabic.
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ShipmentNoteService } from '../src/gen/logistics/v1/shipment_note_service_pb';
import { DeliveryAttemptFailure, ShipmentStatus } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { adminEmail, searchShipments, signIn } from './support/admin';
import { addCustomerUser, createCustomer, signInToPortal } from './support/customers';
import { flowAt, layoutUnlessDesktop, siteUrl } from './support/env';
import { expectAccessible, expectNoSidewaysScroll } from './support/page-checks';
import { adminRpc, fetchThrough, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { createShipment, partiesFor, result, VERIFY_BUTTON, VERIFY_LABEL } from './support/tracking';
import { keepScreenshot, SCREENSHOTS } from './support/visual';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const PASSWORD = 'a-Staff-Passw0rd-2026';
const NOBODY_HOME_EN = 'Delivery attempt failed: nobody home';
const NOBODY_HOME_AR = 'فشلت محاولة التسليم: لا أحد في المنزل';

const RUN = Date.now().toString(36).slice(-6);
let serial = 0;
function tag(): string {
  serial += 1;
  return `note${RUN}${serial}`;
}

// Each test makes its own shipment: they run side by side.
test.describe.configure({ mode: 'parallel' });

let admin: Clients;
let notes: Client<typeof ShipmentNoteService>;
let request: APIRequestContext;
test.beforeAll(async ({ playwright }) => {
  request = await playwright.request.newContext({ baseURL: siteUrl() });
  admin = await adminRpc(request, siteUrl());
  const transport = createGrpcWebTransport({ baseUrl: siteUrl(), fetch: fetchThrough(request, siteUrl()) });
  notes = createClient(ShipmentNoteService, transport);
});

test.afterAll(async () => {
  await request.dispose();
});

/** A new agent (who updates tracking but does not edit shipments): returns the e-mail. */
async function agent(): Promise<string> {
  const email = `agent-${tag()}@example.com`;
  await admin.users.createUser({ user: { email, name: 'Ade Agent', role: Role.AGENT }, password: PASSWORD });
  return email;
}

async function openView(page: Page, trackingNumber: string): Promise<Locator> {
  await searchShipments(page, trackingNumber);
  const row = page.locator(`[data-tracking-number="${trackingNumber}"]`).first();
  await row.getByRole('button', { name: `View shipment ${trackingNumber}` }).click();
  const view = page.getByRole('dialog', { name: `Shipment ${trackingNumber}` });
  await expect(view.getByRole('heading', { name: 'Summary' })).toBeVisible();
  return view;
}

/** No sideways scroll on the page nor inside an open dialog. */
async function expectNoSideways(page: Page): Promise<void> {
  await expectNoSidewaysScroll(page);
  for (const body of await page.locator('dialog[open] .modal-body').all()) {
    expect(await body.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  }
}

/** Light, then dark. */
async function shootBoth(page: Page, name: string, target: Page | Locator = page): Promise<void> {
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await keepScreenshot(target, join(SCREENSHOTS, `${name}-${dark ? 'dark' : 'light'}.png`), { fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

for (const viewport of VIEWPORTS) {
  test.describe(`internal notes (${viewport.name})`, layoutUnlessDesktop(viewport), () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('an admin adds notes in the View dialog: newest first, with author and time, line breaks kept; too long is refused', async ({
      page,
    }) => {
      flowAt(page, 1280);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await signIn(page);
      const view = await openView(page, shipment.trackingNumber);
      const section = view.getByRole('region', { name: 'Internal notes' });
      await expect(section).toContainText('Only staff see these notes.');
      await expect(section).toContainText('No notes yet.');
      const text = section.getByRole('textbox', { name: 'Add an internal note' });
      const add = section.getByRole('button', { name: 'Add note' });

      const first = `Called the receiver ${run}`;
      const second = `Left a card at the door ${run}\nReceiver is back after 18:00`;
      await text.fill(first);
      await add.click();
      await expect(toastWithText(page, 'Note added')).toBeVisible();
      await expect(text).toHaveValue('');
      await expect(section.getByTestId('shipment-note')).toHaveCount(1);
      await text.fill(second);
      await expect(section).toContainText(`${second.length} / 2,000`);
      await add.click();
      const items = section.getByTestId('shipment-note');
      await expect(items).toHaveCount(2);

      // Newest first, each with its author and local date-time; the line break as typed.
      await expect(items.nth(0).locator('.note-text')).toHaveText(second);
      await expect(items.nth(1).locator('.note-text')).toHaveText(first);
      expect(await items.nth(0).locator('.note-text').evaluate((el: HTMLElement) => el.innerText)).toBe(second);
      for (const item of [items.nth(0), items.nth(1)]) {
        await expect(item).toContainText(adminEmail());
        await expect(item.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
        await expect(item.locator('time')).toHaveText(/\d{4}, \d{1,2}:\d\d\s?[AP]M/);
      }

      // 2,001 characters: the counter says so, the server refuses it under the text.
      const tooLong = `${run} `.padEnd(2_001, 'x');
      await text.fill(tooLong);
      await expect(section).toContainText('2,001 / 2,000');
      await expect(section).toContainText('1 character too many');
      await add.click();
      await expect(text).toHaveAttribute('aria-invalid', 'true');
      const error = section.locator('#shipment-note-text-error');
      await expect(error).not.toBeEmpty();
      await expect(text).toBeFocused();
      await expect(items).toHaveCount(2);
      expect((await notes.listShipmentNotes({ shipmentId: shipment.id })).notes.map((n) => n.text)).toEqual([second, first]);

      await expectNoSideways(page);
      await expectAccessible(page, 'dialog[open]');
      await section.scrollIntoViewIfNeeded();
      await shootBoth(page, `notes-view-${viewport.width}`, view);
    });

    test('an agent records a failed delivery attempt: never with Delivered; shown in the staff history and on the tracking page, in English and Arabic', async ({
      page,
    }) => {
      flowAt(page, 1280);
      const run = tag();
      const [shipment, email] = await Promise.all([createShipment(admin, run), agent()]);
      await signIn(page, email, PASSWORD);
      await searchShipments(page, shipment.trackingNumber);
      const row = page.locator(`[data-tracking-number="${shipment.trackingNumber}"]`).first();
      await row.getByRole('button', { name: `Update status of shipment ${shipment.trackingNumber}` }).click();
      const dialog = page.getByRole('dialog', { name: `Update Status: ${shipment.trackingNumber}` });
      const attempt = dialog.getByLabel('Delivery attempt');
      await expect(attempt).toHaveValue('0');
      await expect(attempt.locator('option')).toHaveText([
        'No failed attempt',
        'Failed: nobody home',
        'Failed: refused',
        'Failed: address problem',
      ]);
      await dialog.getByLabel('Current Location').fill('Amsterdam, Netherlands');
      await attempt.selectOption({ label: 'Failed: nobody home' });

      // Delivered and a failed attempt at once: refused, the reason under the select.
      await dialog.getByLabel('Status').selectOption(String(ShipmentStatus.DELIVERED));
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      await expect(attempt).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog.locator('#track-failed-attempt-error')).not.toBeEmpty();
      expect((await admin.shipments.getShipment({ id: shipment.id })).status).toBe(ShipmentStatus.PENDING);
      await expectNoSideways(page);
      await expectAccessible(page, 'dialog[open]');
      await shootBoth(page, `failed-attempt-dialog-${viewport.width}`, dialog);

      await dialog.getByLabel('Status').selectOption(String(ShipmentStatus.DELAYED));
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(toastWithText(page, 'Status updated')).toBeVisible();

      const view = await openView(page, shipment.trackingNumber);
      const latest = view.getByRole('region', { name: 'Shipment History' }).getByTestId('history-event').first();
      await expect(latest).toContainText(NOBODY_HOME_EN);
      await latest.scrollIntoViewIfNeeded();
      await shootBoth(page, `failed-attempt-history-${viewport.width}`, view);

      // The tracking page in English and in Arabic.
      const pages = [
        ['', NOBODY_HOME_EN],
        ['/ar', NOBODY_HOME_AR],
      ] as const;
      for (const [prefix, words] of pages) {
        await page.goto(`${prefix}/track/${shipment.trackingNumber}`);
        const history = page.locator('section[aria-labelledby="history-heading"]');
        const event = history.getByTestId('history-event').first();
        await expect(event).toContainText(words);
        if (prefix) await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
        await expectNoSideways(page);
        // The history, where the line is (the rest of the page has its own checks).
        await expectAccessible(page, 'section[aria-labelledby="history-heading"]');
        await shootBoth(page, `failed-attempt-track${prefix.replace('/', '-') || '-en'}-${viewport.width}`, history);
      }
    });

    test('the notes, the Update Status dialog with its failed attempt, and the Arabic history fit the screen', async ({ page }) => {
      // The flows above run on a desktop; on a phone, what their screens look like.
      test.skip(viewport.width !== 390, 'the layout of a phone');
      const run = tag();
      const [shipment, email] = await Promise.all([createShipment(admin, run), agent()]);
      const first = `Called the receiver ${run}`;
      const second = `Left a card at the door ${run}\nReceiver is back after 18:00`;
      for (const text of [first, second]) await notes.createShipmentNote({ shipmentId: shipment.id, text });
      await admin.shipments.updateShipmentTracking({
        id: shipment.id,
        status: ShipmentStatus.DELAYED,
        currentLocation: 'Amsterdam, Netherlands',
        failedAttempt: DeliveryAttemptFailure.NOBODY_HOME,
      });

      // An agent: the one who records attempts (an admin edits instead), and adds notes too.
      await signIn(page, email, PASSWORD);
      const view = await openView(page, shipment.trackingNumber);
      const section = view.getByRole('region', { name: 'Internal notes' });
      await expect(section.getByTestId('shipment-note')).toHaveCount(2);
      await expect(section.getByTestId('shipment-note').first().locator('.note-text')).toHaveText(second);
      await section.getByRole('button', { name: 'Add note' }).scrollIntoViewIfNeeded();
      await expect(section.getByRole('button', { name: 'Add note' })).toBeInViewport();
      await expect(view.getByRole('region', { name: 'Shipment History' }).getByTestId('history-event').first()).toContainText(NOBODY_HOME_EN);
      await expectNoSideways(page);
      await shootBoth(page, `notes-view-${viewport.width}`, view);
      await view.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(view).toHaveCount(0);

      const row = page.locator(`[data-tracking-number="${shipment.trackingNumber}"]`).first();
      await row.getByRole('button', { name: `Update status of shipment ${shipment.trackingNumber}` }).click();
      const dialog = page.getByRole('dialog', { name: `Update Status: ${shipment.trackingNumber}` });
      await expect(dialog.getByLabel('Delivery attempt')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Update Status' })).toBeVisible();
      await expectNoSideways(page);
      await shootBoth(page, `failed-attempt-dialog-${viewport.width}`, dialog);

      await page.goto(`/ar/track/${shipment.trackingNumber}`);
      const history = page.locator('section[aria-labelledby="history-heading"]');
      await expect(history.getByTestId('history-event').first()).toContainText(NOBODY_HOME_AR);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expectNoSideways(page);
      await shootBoth(page, `failed-attempt-track-ar-${viewport.width}`, history);
    });
  });
}

test('a note appears neither on the public tracking page, limited or verified, nor in the customer portal', async ({ page }) => {
  flowAt(page, 1280);
  const run = tag();
  const customer = await createCustomer(admin, `Notes Co ${run}`, { name: 'Nia Notes', email: `nia.${run}@example.com` });
  const portalUser = `portal.${run}@example.com`;
  await addCustomerUser(admin, customer.id, portalUser, 'Pat Portal', Role.CUSTOMER_ADMIN);
  const shipment = await createShipment(admin, run, { customerId: customer.id });
  const secret = `Receiver owes a deposit ${run}`;
  await notes.createShipmentNote({ shipmentId: shipment.id, text: secret });

  const expectNowhere = async (scope: Locator) => {
    await expect(scope).not.toContainText(secret);
    expect(await page.content()).not.toContain(secret);
  };

  // The limited view, then the full one as the receiver.
  await page.goto(`/track/${shipment.trackingNumber}`);
  await expect(result(page).getByRole('heading', { level: 2, name: shipment.trackingNumber, exact: true })).toBeVisible();
  await expectNowhere(result(page));
  await result(page).getByRole('textbox', { name: VERIFY_LABEL }).fill(partiesFor(run).receiver.email);
  await result(page).getByRole('button', { name: VERIFY_BUTTON }).click();
  await expect(result(page).getByRole('heading', { name: 'Packages' })).toBeVisible();
  await expectNowhere(result(page));

  // The customer's own page of it.
  await signInToPortal(page, portalUser);
  await page.goto(`/portal/shipments/${shipment.id}`);
  await expect(page.getByRole('main')).toContainText(shipment.trackingNumber);
  await expect(page.getByRole('main').getByTestId('history-event').first()).toBeVisible();
  await expectNowhere(page.getByRole('main'));
});
