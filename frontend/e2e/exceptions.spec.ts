// The staff's exceptions queue: a shipment put on hold and one past its expected delivery date
// are in the queue with their kinds; the dashboard counts them and links to the queue of a
// kind; one is assigned to the signed-in admin and resolved with a reason (an empty one is
// refused next to its field); the Exceptions section of Settings saves. Each flow at 390 or 1280 px,
// light and dark, with nothing serious for axe and no sideways scroll; the phone's dashboard and
// queue have a layout check of their own.
import { mkdirSync } from 'node:fs';
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  ShipmentExceptionKind,
  ShipmentExceptionService,
  ShipmentExceptionState,
} from '../src/gen/logistics/v1/shipment_exception_service_pb';
import { ShipmentStatus, type Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { ADMIN_PATH, adminEmail, signIn } from './support/admin';
import { flowAt, LAYOUT } from './support/env';
import { expectAccessible, expectNoSidewaysScroll } from './support/page-checks';
import { adminRpc, fetchThrough, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { createShipment, dayFromToday, moveShipment } from './support/tracking';
import { SCREENSHOTS, keepScreenshot } from './support/visual';

const EXCEPTIONS_PATH = `${ADMIN_PATH}/exceptions`;
const SETTINGS_PATH = `${ADMIN_PATH}/settings`;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

type Exceptions = Client<typeof ShipmentExceptionService>;

/** The admin's clients, and the exceptions service's, on one signed-in cookie jar. */
async function adminClients(baseURL: string): Promise<{ admin: Clients; exceptions: Exceptions; jar: APIRequestContext }> {
  const jar = await playwrightRequest.newContext({ baseURL });
  const admin = await adminRpc(jar, baseURL);
  const origin = new URL(baseURL).origin;
  const exceptions = createClient(ShipmentExceptionService, createGrpcWebTransport({ baseUrl: origin, fetch: fetchThrough(jar, origin) }));
  return { admin, exceptions, jar };
}

/** A shipment put on hold, and one whose expected delivery date is three days past. */
async function twoExceptions(admin: Clients, run: string): Promise<{ onHold: Shipment; late: Shipment }> {
  const held = await createShipment(admin, `${run}h`);
  const onHold = await moveShipment(admin, held, ShipmentStatus.ON_HOLD, 'Customs, Lisbon', 'Awaiting the invoice');
  const late = await createShipment(admin, `${run}l`, { pickupDate: dayFromToday(-6), expectedDeliveryDate: dayFromToday(-3) });
  return { onHold, late };
}

/** Waits until the server's queue holds the shipment's open exception of this kind. */
async function waitForException(exceptions: Exceptions, shipment: Shipment, kind: ShipmentExceptionKind): Promise<void> {
  await expect
    .poll(
      async () => {
        let pageToken = '';
        do {
          const page = await exceptions.listShipmentExceptions({ kind, state: ShipmentExceptionState.OPEN, pageSize: 100, pageToken });
          if (page.exceptions.some((e) => e.shipmentId === shipment.id)) return true;
          pageToken = page.nextPageToken;
        } while (pageToken);
        return false;
      },
      { message: `an open exception for ${shipment.trackingNumber}`, timeout: 15_000 },
    )
    .toBe(true);
}

/** The queue's row of a shipment, loading more pages until it shows (other tests' shipments come
 * first when they have waited longer). */
async function rowOf(page: Page, shipment: Shipment): Promise<Locator> {
  const row = page.locator(`tr[data-tracking-number="${shipment.trackingNumber}"]`);
  await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
  const more = page.getByRole('button', { name: 'Load more' });
  while ((await row.count()) === 0 && (await more.count()) > 0) {
    await more.click();
    await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
  }
  await expect(row).toBeVisible();
  return row;
}

/** The page (or one part of it) in both themes, into test-results/screenshots. */
async function shoot(page: Page, name: string, target: Page | Locator = page, fullPage = true): Promise<void> {
  // Under CI only with E2E_SCREENSHOTS (keepScreenshot), and then without the toasts' wait.
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The toasts of earlier steps would hide what the picture is for (one may be leaving already).
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click({ timeout: 1_000 }).catch(() => {});
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(target, `${SCREENSHOTS}/exceptions-${name}-${width}-${theme}.png`, { fullPage: fullPage && target === page });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

function attentionCard(page: Page, label: string): Locator {
  return page.getByRole('region', { name: 'Needs attention' }).getByRole('link', { name: new RegExp(`^[\\d,]+\\+? ${label}$`) });
}

for (const viewport of [PHONE, DESKTOP]) {
  const px = `${viewport.width} px`;

  test.describe(`exceptions at ${px}`, () => {
    test.use({ viewport });

    test(`the dashboard counts what needs attention and the queue shows each kind at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 1280);
      // Full-page pictures of a long queue, in two themes, take their time.
      if (process.env.E2E_SCREENSHOTS) test.slow();
      const run = `${Date.now().toString(36).slice(-6)}q${viewport.width}`;
      const { admin, exceptions } = await adminClients(baseURL!);
      const { onHold, late } = await twoExceptions(admin, run);
      await waitForException(exceptions, onHold, ShipmentExceptionKind.ON_HOLD);
      await waitForException(exceptions, late, ShipmentExceptionKind.LATE);

      await signIn(page);
      await test.step('the dashboard counts the open exceptions per kind', async () => {
        const attention = page.getByRole('region', { name: 'Needs attention' });
        await expect(attention.getByRole('link')).toHaveCount(6);
        for (const label of ['Late', 'On hold']) {
          const value = await attentionCard(page, label).locator('.attention-value').textContent();
          expect(Number(value!.replace(/\D/g, '')), `${label} counts this test's exception`).toBeGreaterThanOrEqual(1);
        }
        for (const label of ['Stalled', 'Failed delivery attempt', 'Missing proof of delivery']) await expect(attentionCard(page, label)).toBeVisible();
        await expectNoSidewaysScroll(page);
        await expectAccessible(page, '.needs-attention');
        await shoot(page, 'dashboard', attention);
        await shoot(page, 'dashboard-page', page, false);
      });

      await test.step("a kind's figure opens the queue of that kind", async () => {
        await attentionCard(page, 'On hold').click();
        await expect(page).toHaveURL((url) => url.pathname === EXCEPTIONS_PATH && url.searchParams.get('kind') === 'on_hold');
        await expect(page.getByRole('heading', { level: 1, name: 'Exceptions' })).toBeVisible();
        await expect(page.getByRole('radio', { name: /^On hold [\d,]+\+? open$/ })).toBeChecked();
        const row = await rowOf(page, onHold);
        await expect(row.locator('td.exception-kind')).toHaveText('On hold');
        await expect(row.locator('td[data-label="Status"]')).toContainText('On Hold');
        await expect(row.locator('td[data-label="Location"]')).toContainText('Customs, Lisbon');
        await expect(row.locator('td[data-label="Since"]')).toContainText(/for (less than a minute|\d+ minutes?)/);
        await expect(row.locator('td[data-label="Receiver / shipper"]')).toContainText('Jan Jansen');
        await expect(row.locator('td[data-label="Receiver / shipper"]')).toContainText('from Maria Garcia');
        await expect(row.locator('td[data-label="Assignee"]')).toHaveText('Unassigned');
        await expect(page.locator(`tr[data-tracking-number="${late.trackingNumber}"]`)).toHaveCount(0);
        // Checked on the few rows of one kind: every row is built alike.
        await expectAccessible(page, '.admin-main');
      });

      await test.step('every kind: the late shipment too, with its expected date', async () => {
        await page.getByRole('radio', { name: /^All kinds/ }).click();
        await expect(page.getByRole('radio', { name: /^All kinds/ })).toBeChecked();
        await expect(page).toHaveURL((url) => !url.searchParams.has('kind'));
        const row = await rowOf(page, late);
        await expect(row.locator('td.exception-kind')).toHaveText('Late');
        await expect(row.locator('td[data-label="Since"]')).toContainText(/for \d+ (hours?|days?)/);
        const expected = dayFromToday(-3);
        const day = new Date(Date.UTC(expected.year, expected.month - 1, expected.day)).toLocaleDateString('en-US', {
          month: 'short',
          day: 'numeric',
          year: 'numeric',
          timeZone: 'UTC',
        });
        await expect(row.locator('td[data-label="Expected delivery"]')).toHaveText(day);
        await rowOf(page, onHold);
        // The tracking number opens the shipment in the list.
        await expect(row.getByRole('link', { name: late.trackingNumber })).toHaveAttribute('href', `${ADMIN_PATH}?q=${late.trackingNumber}`);
        await shoot(page, 'queue');
        await expectNoSidewaysScroll(page);
        const [scroll, client] = await page.getByRole('region', { name: 'Exceptions' }).evaluate((el) => [el.scrollWidth, el.clientWidth]);
        expect(scroll, 'every column of the queue is on screen').toBeLessThanOrEqual(client);
      });

      await test.step('the settings section', async () => {
        await page.goto(SETTINGS_PATH);
        const form = page.getByRole('form', { name: 'Exceptions' });
        await expect(form.getByLabel('Land')).toHaveValue(/^\d+$/);
        await form.scrollIntoViewIfNeeded();
        await expectNoSidewaysScroll(page);
        await expectAccessible(page, '.exception-settings');
        await shoot(page, 'settings', form);
      });
    });

    test(`the dashboard's figures and the queue of a kind fit the screen at ${px}`, { tag: LAYOUT }, async ({ page, baseURL }) => {
      // The flow above runs on a desktop; on a phone, what the screens look like.
      test.skip(viewport.width !== PHONE.width, 'the layout of a phone');
      const run = `${Date.now().toString(36).slice(-6)}p${viewport.width}`;
      const { admin, exceptions } = await adminClients(baseURL!);
      const onHold = await moveShipment(admin, await createShipment(admin, `${run}h`), ShipmentStatus.ON_HOLD, 'Customs, Lisbon', 'Awaiting the invoice');
      await waitForException(exceptions, onHold, ShipmentExceptionKind.ON_HOLD);

      await signIn(page);
      const attention = page.getByRole('region', { name: 'Needs attention' });
      await expect(attention.getByRole('link')).toHaveCount(6);
      for (const label of ['Late', 'On hold', 'Stalled', 'Failed delivery attempt', 'Missing proof of delivery']) await expect(attentionCard(page, label)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'dashboard', attention);

      await attentionCard(page, 'On hold').click();
      await expect(page).toHaveURL((url) => url.pathname === EXCEPTIONS_PATH && url.searchParams.get('kind') === 'on_hold');
      const row = await rowOf(page, onHold);
      await expect(row.locator('td.exception-kind')).toHaveText('On hold');
      for (const button of [/^Assign to me/, /^Assign…/, /^Resolve…/]) await expect(row.getByRole('button', { name: button })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'queue');
    });

    test(`an exception is assigned to me and resolved with a reason at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 1280);
      const run = `${Date.now().toString(36).slice(-6)}r${viewport.width}`;
      const { admin, exceptions } = await adminClients(baseURL!);
      const { onHold, late } = await twoExceptions(admin, run);
      await waitForException(exceptions, onHold, ShipmentExceptionKind.ON_HOLD);
      await waitForException(exceptions, late, ShipmentExceptionKind.LATE);
      await signIn(page);

      await test.step('Assign… gives the late one to someone, and to nobody again', async () => {
        await page.goto(`${EXCEPTIONS_PATH}?kind=late`);
        const row = await rowOf(page, late);
        await row.getByRole('button', { name: /^Assign…/ }).click();
        const dialog = page.getByRole('dialog', { name: `Assign ${late.trackingNumber} (Late)` });
        await dialog.getByLabel('Assignee').selectOption({ label: `Me (${adminEmail()})` });
        await dialog.getByRole('button', { name: 'Assign' }).click();
        await expect(toastWithText(page, `${late.trackingNumber} (Late) assigned to you`)).toBeVisible();
        await expect(row.locator('td[data-label="Assignee"]')).toHaveText(`${adminEmail()} (you)`);
        await row.getByRole('button', { name: /^Assign…/ }).click();
        await dialog.getByLabel('Assignee').selectOption({ label: 'Nobody' });
        await dialog.getByRole('button', { name: 'Assign' }).click();
        await expect(toastWithText(page, `${late.trackingNumber} (Late) unassigned`)).toBeVisible();
        await expect(row.locator('td[data-label="Assignee"]')).toHaveText('Unassigned');
      });

      await test.step('Assign to me, and "Assigned to me" shows it', async () => {
        await page.goto(`${EXCEPTIONS_PATH}?kind=on_hold`);
        const row = await rowOf(page, onHold);
        await row.getByRole('button', { name: /^Assign to me/ }).click();
        await expect(toastWithText(page, `${onHold.trackingNumber} (On hold) assigned to you`)).toBeVisible();
        await expect(row.locator('td[data-label="Assignee"]')).toHaveText(`${adminEmail()} (you)`);
        await expect(row.getByRole('button', { name: /^Assign to me/ })).toHaveCount(0);
        await page.getByLabel('Assignee').selectOption('me');
        await expect(page).toHaveURL((url) => url.searchParams.get('assignee') === 'me');
        await rowOf(page, onHold);
        await expect(page.locator(`tr[data-tracking-number="${late.trackingNumber}"]`)).toHaveCount(0);
      });

      await test.step("the shipment's internal notes open from the queue", async () => {
        const row = await rowOf(page, onHold);
        await row.getByRole('button', { name: `Notes on ${onHold.trackingNumber}` }).click();
        const dialog = page.getByRole('dialog', { name: `Shipment ${onHold.trackingNumber}` });
        await dialog.getByLabel('Add an internal note').fill(`Customs want the invoice ${run}`);
        await dialog.getByRole('button', { name: 'Add note' }).click();
        await expect(dialog.getByText(`Customs want the invoice ${run}`)).toBeVisible();
        await dialog.getByRole('button', { name: 'Close', exact: true }).click();
        await expect(dialog).toHaveCount(0);
      });

      await test.step('resolving needs what was done, then it leaves the open list', async () => {
        const row = await rowOf(page, onHold);
        await row.getByRole('button', { name: /^Resolve…/ }).click();
        const dialog = page.getByRole('dialog', { name: `Resolve ${onHold.trackingNumber} (On hold)` });
        await dialog.getByRole('button', { name: 'Resolve' }).click();
        await expect(dialog.getByLabel('What was done')).toHaveAttribute('aria-invalid', 'true');
        await expect(dialog.getByText('Enter what was done')).toBeVisible();
        await expectAccessible(page, 'dialog[open]');
        await shoot(page, 'resolve-dialog', dialog);
        await dialog.getByLabel('What was done').fill(`Invoice received from the shipper ${run}; released by customs.`);
        await expect(dialog.getByText('Enter what was done')).toHaveCount(0);
        await dialog.getByRole('button', { name: 'Resolve' }).click();
        await expect(toastWithText(page, `${onHold.trackingNumber} (On hold) resolved`)).toBeVisible();
        await expect(page.locator(`tr[data-tracking-number="${onHold.trackingNumber}"]`)).toHaveCount(0);
      });

      await test.step('it shows under Resolved, with what was done', async () => {
        await page.getByLabel('Assignee').selectOption('anyone');
        await page.getByLabel('State').selectOption('resolved');
        await expect(page).toHaveURL((url) => url.searchParams.get('state') === 'resolved' && !url.searchParams.has('assignee'));
        const row = await rowOf(page, onHold);
        await expect(row.locator('td[data-label="Resolution"]')).toContainText(`Invoice received from the shipper ${run}; released by customs.`);
        // Nothing to do on a resolved one but read its shipment's notes.
        await expect(row.getByRole('button')).toHaveText(['Notes on ' + onHold.trackingNumber]);
      });
    });

    test(`the exception settings save and show after a reload at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 390);
      const { exceptions } = await adminClients(baseURL!);
      const before = await exceptions.getExceptionSettings({});
      try {
        await signIn(page);
        await page.goto(SETTINGS_PATH);
        const form = page.getByRole('form', { name: 'Exceptions' });
        await form.getByLabel('Land').fill('0');
        await form.getByLabel('Air').fill('36');
        await form.getByLabel('Sea').fill('300');
        await form.getByLabel('Operations e-mail').fill('not an address');
        await form.getByLabel('Digest language').selectOption({ label: 'Français' });
        await form.getByLabel('Digest hour').selectOption({ label: '07:00' });
        await form.getByRole('button', { name: 'Save' }).click();
        // Known to the form: said at once, nothing sent.
        await expect(form.getByLabel('Land')).toHaveAttribute('aria-invalid', 'true');
        await expect(form.getByText('Enter a whole number of hours from 1 to 720')).toBeVisible();

        await form.getByLabel('Land').fill('72');
        await form.getByRole('button', { name: 'Save' }).click();
        // The server's field violation, under its field.
        await expect(form.getByLabel('Operations e-mail')).toHaveAttribute('aria-invalid', 'true');
        await expect(form.locator('#exception-operations-email-error')).toBeVisible();
        await expectNoSidewaysScroll(page);

        await form.getByLabel('Operations e-mail').fill(`ops-${Date.now()}@example.com`);
        const email = await form.getByLabel('Operations e-mail').inputValue();
        await form.getByRole('button', { name: 'Save' }).click();
        await expect(toastWithText(page, 'Exception settings saved')).toBeVisible();

        await page.reload();
        const reloaded = page.getByRole('form', { name: 'Exceptions' });
        await expect(reloaded.getByLabel('Land')).toHaveValue('72');
        await expect(reloaded.getByLabel('Air')).toHaveValue('36');
        await expect(reloaded.getByLabel('Sea')).toHaveValue('300');
        await expect(reloaded.getByLabel('Operations e-mail')).toHaveValue(email);
        await expect(reloaded.getByLabel('Digest language')).toHaveValue('fr');
        await expect(reloaded.getByLabel('Digest hour')).toHaveValue('7');
      } finally {
        await exceptions.updateExceptionSettings({ settings: before });
      }
    });
  });
}
