import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  ADMIN_PATH,
  INVALID_CREDENTIALS,
  LOGIN_PATH,
  SHIPMENT_SERVICE_PATH,
  TOO_MANY_ATTEMPTS,
  USERS_PATH,
  adminEmail,
  adminPassword,
  loginError,
  signIn,
  submitLogin,
} from './support/admin';
import { definition, toastWithText } from './support/track-page';
import { LAYOUT, ONE_MODE, siteUrl } from './support/env';
import { adminRpc } from './support/rpc';
import { waitForEmail } from './support/tracking';
import { keepScreenshot } from './support/visual';

const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');
const RUN = Date.now().toString(36).slice(-6);

/** The shipment the lifecycle test creates: two package lines. */
const NEW_SHIPMENT = {
  shipper: { name: `Ana Shipper ${RUN}`, address: '12 Rua Augusta, Lisbon', phone: '+351 21 000 0000', email: 'ana@example.com' },
  receiver: { name: `Ben Receiver ${RUN}`, address: '40 King St W, Toronto', phone: '+1 416 555 0100', email: 'ben@example.com' },
  origin: `Lisbon ${RUN}, Portugal`,
  destination: 'Toronto, Canada',
  carrier: 'DHL',
  type: 'express',
  mode: 'air_shipping',
  paymentMode: 'credit_card',
  product: 'Ceramic tiles',
  productQuantity: '40',
  packageCount: '3',
  totalFreight: '1250.50',
  weight: '55',
  expectedDeliveryDate: '2030-12-01',
  departureTime: '08:30',
  pickupDate: '2030-11-20',
  pickupTime: '14:05',
  comments: 'Fragile: handle with care',
  packages: [
    { quantity: '2', pieceType: 'Box', description: 'Tiles, 20 per box', length: '50', width: '40', height: '30', weight: '12.5' },
    { quantity: '1', pieceType: 'Crate', description: 'Display stand', length: '100', width: '50', height: '40', weight: '30' },
  ],
};
// Σ L×W×H×qty = 50·40·30·2 + 100·50·40·1 = 320,000 cm³ → 64 kg volumetric, 0.32 m³; Σ weight×qty = 55 kg.
const EXPECTED_TOTALS = { volumetric: '64 kg', volume: '0.32 m³', actual: '55 kg' };

function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name });
}

function group(scope: Locator, name: string): Locator {
  return scope.getByRole('group', { name, exact: true });
}

function shipmentRow(page: Page, trackingNumber: string): Locator {
  return page.getByRole('region', { name: 'Shipments' }).locator(`tr[data-tracking-number="${trackingNumber}"]`);
}

async function fillCreateForm(form: Locator): Promise<void> {
  const s = NEW_SHIPMENT;
  for (const [legend, party] of [
    ['Shipper', s.shipper],
    ['Receiver', s.receiver],
  ] as const) {
    const g = group(form, legend);
    await g.getByLabel('Name').fill(party.name);
    await g.getByLabel('Address').fill(party.address);
    await g.getByLabel('Phone').fill(party.phone);
    await g.getByLabel('Email').fill(party.email);
  }
  const details = group(form, 'Shipment');
  await details.getByLabel('Origin').fill(s.origin);
  await details.getByLabel('Destination').fill(s.destination);
  await details.getByLabel('Carrier').fill(s.carrier);
  await details.getByLabel('Type of Shipment').selectOption(s.type);
  await details.getByLabel('Shipment Mode').selectOption(s.mode);
  await details.getByLabel('Payment Mode').selectOption(s.paymentMode);
  await details.getByLabel('Product', { exact: true }).fill(s.product);
  await details.getByLabel('Product Quantity').fill(s.productQuantity);
  await details.getByLabel('Total Freight ($)').fill(s.totalFreight);
  const schedule = group(form, 'Schedule');
  await schedule.getByLabel('Expected Delivery Date').fill(s.expectedDeliveryDate);
  await schedule.getByLabel('Departure Time').fill(s.departureTime);
  await schedule.getByLabel('Pickup Date').fill(s.pickupDate);
  await schedule.getByLabel('Pickup Time').fill(s.pickupTime);
  await form.getByLabel('Comments').fill(s.comments);

  await form.getByRole('button', { name: 'Add package' }).click();
  for (const [index, p] of s.packages.entries()) {
    const row = group(form, `Package ${index + 1}`);
    await row.getByLabel('Quantity').fill(p.quantity);
    await row.getByLabel('Piece Type').fill(p.pieceType);
    await row.getByLabel('Description').fill(p.description);
    await row.getByLabel('Length (cm)').fill(p.length);
    await row.getByLabel('Width (cm)').fill(p.width);
    await row.getByLabel('Height (cm)').fill(p.height);
    await row.getByLabel('Weight (kg)').fill(p.weight);
  }
  // The package count and the weight follow the packages.
  await expect(details.getByLabel('Package Count')).toHaveValue(s.packageCount);
  await expect(details.getByLabel('Weight (kg)')).toHaveValue(s.weight);
}

async function search(page: Page, text: string): Promise<void> {
  const answered = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
  await page.getByLabel('Search', { exact: true }).fill(text);
  await answered;
}

test.describe('admin sign-in', () => {
  test('a visitor without a session is sent from the dashboard to the login page', async ({ page }) => {
    for (const path of [ADMIN_PATH, USERS_PATH]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Login');
    }
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('required', '');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('required', '');
  });

  test('a wrong password shows "Invalid email or password"', async ({ page }) => {
    await page.goto(LOGIN_PATH);
    await submitLogin(page, adminEmail(), 'not-the-right-password');
    await expect(loginError(page)).toHaveText(INVALID_CREDENTIALS);
    await expect(toastWithText(page, INVALID_CREDENTIALS)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
    await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeEnabled();
  });

  test('an account is locked after 5 failed attempts', async ({ page }) => {
    const email = `nobody-${RUN}@example.com`;
    await page.goto(LOGIN_PATH);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await submitLogin(page, email, `wrong-password-${attempt}`);
      await expect(loginError(page), `attempt ${attempt}`).toHaveText(INVALID_CREDENTIALS);
    }
    await submitLogin(page, email, 'wrong-password-6');
    await expect(loginError(page)).toHaveText(TOO_MANY_ATTEMPTS);
    await expect(toastWithText(page, TOO_MANY_ATTEMPTS)).toBeVisible();
  });

  test('the login page sends a signed-in admin to the dashboard', async ({ page }) => {
    await signIn(page);
    await expect(page.getByTestId('admin-user-email')).toContainText(adminEmail());
    await page.goto(LOGIN_PATH);
    await expect(page).toHaveURL(new RegExp(`${ADMIN_PATH}$`));
    // The session survives a reload (restored from the cookie).
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
  });

  test('a session that ends on the server sends the open page to the login, with nothing of it kept', async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
    // The session check every few seconds cannot get through (a network blip keeps what is
    // shown), so the admin call below is what finds the session gone.
    await page.route('**/logistics.v1.SessionService/GetSession', (route) => route.abort());
    // The cookie gone (as when the session expires): the next admin call answers Unauthenticated.
    await page.context().clearCookies();
    // Opening another screen (a link, never busy: the list's Refresh is while the live feed has
    // it read again for other tests' changes). A call of the page's own (the live feed coming
    // back, a refetch) may find the session gone first and leave for the login before the
    // click: what follows is checked either way.
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Users', exact: true })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await expect(toastWithText(page, 'Your session has ended. Please sign in again.')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
    await page.unroute('**/logistics.v1.SessionService/GetSession');
    // Signing in again shows the dashboard afresh.
    await submitLogin(page, adminEmail(), adminPassword());
    await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
    await expect(page.getByTestId('admin-user-email')).toContainText(adminEmail());
  });

  test('a session that ends on the server while the page sits idle is said within seconds', async ({ page }) => {
    await signIn(page);
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    // No click: the page's own check every 5 s finds the session gone.
    await page.context().clearCookies();
    await expect(toastWithText(page, 'Your session has ended. Please sign in again.')).toBeVisible({ timeout: 10_000 });
    await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
    await expect(page.getByTestId('admin-user-email')).toHaveCount(0);
  });

  test("an admin's bar is one line at 1280 px: every section and Log out", { tag: LAYOUT }, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    const tabs = ['Shipments', 'Exceptions', 'Import', 'Customers', 'Rates', 'Pickups', 'Users', 'Emails', 'Settings', 'Audit', 'API keys', 'Webhooks'];
    for (const name of tabs) await expect(nav.getByRole('link', { name })).toBeVisible();
    const logout = page.getByRole('button', { name: 'Log out' });
    const middle = async (box: { y: number; height: number } | null) => box!.y + box!.height / 2;
    const line = await middle(await logout.boundingBox());
    for (const name of tabs) {
      expect(Math.abs((await middle(await nav.getByRole('link', { name }).boundingBox())) - line), name).toBeLessThan(4);
    }
    // The signed-in address is whole on that line, not broken letter by letter.
    const account = page.getByTestId('admin-user-email');
    expect(Math.abs((await middle(await account.boundingBox())) - line)).toBeLessThan(4);
    expect((await account.boundingBox())!.height).toBeLessThan(40);
  });
});

test.describe('admin dashboard', () => {
  test('create, find, update, edit, delete a shipment, then sign out', async ({ page }) => {
    test.setTimeout(90_000);
    const consoleErrors: string[] = [];
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await signIn(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
    // The demo shipments are listed and counted.
    await expect(page.getByTestId('shipment-count')).toHaveText(/^\d+ shipments?/);
    await expect(page.getByRole('region', { name: 'Shipments' }).locator('tbody tr').first()).toBeVisible();

    let trackingNumber = '';

    await test.step('Escape and Cancel close the Create Shipment modal; Cancel resets the form', async () => {
      const open = page.getByRole('button', { name: 'Create Shipment' });
      await open.click();
      const modal = dialog(page, 'Create Shipment');
      await expect(modal).toBeVisible();
      await expect(group(modal, 'Package 1').getByLabel('Quantity')).toHaveValue('1');
      await expect(group(modal, 'Shipment').getByLabel('Package Count')).toHaveValue('1');
      await expect(group(modal, 'Shipment').getByLabel('Total Freight ($)')).toHaveValue('0');
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();
      await expect(open).toBeFocused();

      await open.click();
      await group(modal, 'Shipment').getByLabel('Origin').fill('Somewhere');
      await modal.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
      await expect(modal).toBeHidden();
      await open.click();
      await expect(group(modal, 'Shipment').getByLabel('Origin')).toHaveValue('');
      await modal.getByRole('button', { name: 'Cancel' }).click();
    });

    await test.step('create a shipment with two packages', async () => {
      await page.getByRole('button', { name: 'Create Shipment' }).click();
      const modal = dialog(page, 'Create Shipment');
      await fillCreateForm(modal);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await keepScreenshot(page, join(SCREENSHOTS, 'admin-create-1280.png'));
      let release!: () => void;
      const released = new Promise<void>((done) => (release = done));
      await page.route(`**${SHIPMENT_SERVICE_PATH}CreateShipment`, async (route) => {
        await released;
        await route.continue();
      });
      await modal.getByRole('button', { name: 'Create', exact: true }).click();
      const saving = modal.getByRole('button', { name: 'Creating...' });
      await expect(saving).toBeDisabled();
      release();
      await expect(toastWithText(page, 'Shipment created successfully')).toBeVisible();
      await expect(modal).toBeHidden();
      await page.unroute(`**${SHIPMENT_SERVICE_PATH}CreateShipment`);

      const panel = page.getByRole('status').filter({ hasText: 'Shipment created' });
      await expect(panel).toBeVisible();
      trackingNumber = (await definition(panel, 'Tracking Number').textContent())?.trim() ?? '';
      expect(trackingNumber).toMatch(/^PSE\d{9}$/);
      await expect(definition(panel, 'Total Volumetric Weight')).toHaveText(EXPECTED_TOTALS.volumetric);
      await expect(definition(panel, 'Total Volume')).toHaveText(EXPECTED_TOTALS.volume);
      await expect(definition(panel, 'Total Actual Weight')).toHaveText(EXPECTED_TOTALS.actual);
      await keepScreenshot(page, join(SCREENSHOTS, 'admin-dashboard-1280.png'), { fullPage: true });
      // Newest first: the new shipment is on page 1 (not always its first row: the other
      // workers create shipments at the same time).
      await expect(page.getByText('Page 1', { exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Shipments' }).locator(`tbody tr[data-tracking-number="${trackingNumber}"]`)).toBeVisible();
    });

    await test.step('the new shipment produced two e-mails, delivered to the local outbox', async () => {
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Emails' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Emails' })).toBeVisible();
      const emails = page.getByRole('list', { name: 'Emails' }).getByRole('listitem').filter({ hasText: trackingNumber });
      await expect(emails).toHaveCount(2);
      const shipper = emails.filter({ hasText: 'Shipment Created' });
      const receiver = emails.filter({ hasText: 'Package Incoming' });
      await expect(shipper).toContainText(`${NEW_SHIPMENT.shipper.name} <${NEW_SHIPMENT.shipper.email}>`);
      await expect(receiver).toContainText(`${NEW_SHIPMENT.receiver.name} <${NEW_SHIPMENT.receiver.email}>`);
      // The worker sends them within moments; Refresh shows the new state.
      await expect(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await expect(shipper.locator('.status-pill')).toHaveText('Sent', { timeout: 1000 });
        await expect(receiver.locator('.status-pill')).toHaveText('Sent', { timeout: 1000 });
      }).toPass({ timeout: 10_000 });
      await receiver.getByText('Content').click();
      await expect(receiver.locator('.detail-row').filter({ hasText: 'tracking_url' })).toContainText(`/track/${trackingNumber}`);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Shipments' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Shipments' })).toBeVisible();
    });

    await test.step('find it by search and by the status filter', async () => {
      await search(page, trackingNumber.toLowerCase());
      await expect(shipmentRow(page, trackingNumber)).toBeVisible();
      await expect(page.getByRole('region', { name: 'Shipments' }).locator('tbody tr')).toHaveCount(1);
      await expect(page.getByTestId('shipment-count')).toHaveText('1 shipment');

      await search(page, NEW_SHIPMENT.shipper.name.toUpperCase());
      await expect(page.getByRole('region', { name: 'Shipments' }).locator('tbody tr')).toHaveCount(1);
      const row = shipmentRow(page, trackingNumber);
      // As shown (the first cell is the box to tick it): the buttons' words appear only in the phone's cards.
      await expect(row.getByRole('cell')).toHaveText(
        ['', NEW_SHIPMENT.shipper.name, NEW_SHIPMENT.receiver.name, /Lisbon .* Toronto, Canada/s, 'Pending', 'Dec 1, 2030', /\d/, ''],
        { useInnerText: true },
      );
      for (const verb of ['View', 'Edit', 'Delete']) {
        await expect(row.getByRole('button', { name: `${verb} shipment ${trackingNumber}`, exact: true })).toBeVisible();
      }
      await expect(row.locator('.status-badge')).toHaveClass(/status-grey/);

      const status = page.getByLabel('Status', { exact: true });
      await expect(status.locator('option')).toHaveText(['All', 'Pending', 'In Transit', 'Delivered', 'Delayed', 'On Hold']);
      let answered = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
      await status.selectOption('delivered');
      await answered;
      await expect(page.getByTestId('shipment-count')).toHaveText('0 shipments');
      await expect(shipmentRow(page, trackingNumber)).toHaveCount(0);
      answered = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
      await status.selectOption('pending');
      await answered;
      await expect(shipmentRow(page, trackingNumber)).toBeVisible();
      // The filter alone (no search text) lists only pending shipments.
      await search(page, '');
      await expect(shipmentRow(page, trackingNumber)).toBeVisible();
      const badges = page.getByRole('region', { name: 'Shipments' }).locator('.status-badge');
      for (const text of await badges.allTextContents()) expect(text).toBe('Pending');
      answered = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
      await status.selectOption('all');
      await answered;
    });

    await test.step('Refresh reloads, without a toast, and is disabled while loading', async () => {
      let release!: () => void;
      const released = new Promise<void>((done) => (release = done));
      await page.route(`**${SHIPMENT_SERVICE_PATH}ListShipments`, async (route) => {
        await released;
        await route.continue();
      });
      const refresh = page.getByRole('button', { name: 'Refresh' });
      await refresh.click();
      await expect(refresh).toBeDisabled();
      release();
      await expect(refresh).toBeEnabled();
      // A list that loaded gets no toast (admin-phone.spec.ts checks that none was queued).
      await expect(toastWithText(page, 'Data loaded successfully')).toHaveCount(0);
      await page.unroute(`**${SHIPMENT_SERVICE_PATH}ListShipments`);
    });

    await test.step('change status and location with remarks: a new history entry on the public page', async () => {
      await search(page, trackingNumber);
      await shipmentRow(page, trackingNumber).getByRole('button', { name: `Edit shipment ${trackingNumber}` }).click();
      const modal = dialog(page, 'Edit Shipment Details');
      await expect(modal).toBeVisible();
      const tracking = group(modal, 'Tracking');
      await expect(tracking.getByLabel('Status')).toHaveValue('pending');
      await expect(group(modal, 'Shipment').getByLabel('Carrier')).toHaveValue('DHL');
      await expect(group(modal, 'Shipment').getByLabel('Total Freight ($)')).toHaveValue('1250.50');
      await expect(group(modal, 'Package 2').getByLabel('Length (cm)')).toHaveValue('100');
      await tracking.getByLabel('Status').selectOption('in_transit');
      await tracking.getByLabel('Current Location').fill('Madrid Hub, Spain');
      await tracking.getByLabel('Remarks').fill('Departed the sorting centre');
      await tracking.getByLabel(/^Public remark/).check();
      const request = page.waitForRequest((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}UpdateShipment`));
      await modal.getByRole('button', { name: 'Update', exact: true }).click();
      await request;
      await expect(toastWithText(page, 'Shipment updated successfully')).toBeVisible();
      await expect(modal).toBeHidden();
      await expect(shipmentRow(page, trackingNumber).locator('.status-badge')).toHaveText('In Transit');
      await expect(shipmentRow(page, trackingNumber).locator('.status-badge')).toHaveClass(/status-blue/);

      const visitor = await page.context().browser()!.newPage();
      await visitor.goto(`/track/${trackingNumber}`);
      const history = visitor.getByRole('region', { name: 'Shipment History' }).getByTestId('history-event');
      await expect(history).toHaveCount(2);
      await expect(history.first().locator('.status-badge')).toHaveText('In Transit');
      await expect(history.first()).toContainText('Madrid Hub, Spain');
      await expect(history.first()).toContainText('Departed the sorting centre');
      await expect(history.nth(1)).toContainText('Pending');
      await expect(definition(visitor.locator('.result-summary'), 'Current Location')).toHaveText('Madrid Hub, Spain');
      await visitor.close();
    });

    await test.step('edit other fields: shown in the view, no new history entry', async () => {
      await shipmentRow(page, trackingNumber).getByRole('button', { name: `Edit shipment ${trackingNumber}` }).click();
      const modal = dialog(page, 'Edit Shipment Details');
      await expect(group(modal, 'Tracking').getByLabel('Status')).toHaveValue('in_transit');
      await group(modal, 'Shipment').getByLabel('Carrier').fill('Maersk');
      await group(modal, 'Receiver').getByLabel('Phone').fill('+1 416 555 0199');
      // An emptied optional field is cleared; the untouched ones keep their values.
      await modal.getByLabel('Comments').fill('');
      const request = page.waitForRequest((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}UpdateShipment`));
      await modal.getByRole('button', { name: 'Update', exact: true }).click();
      await request;
      // The toast of the previous update may still be showing.
      await expect(toastWithText(page, 'Shipment updated successfully').last()).toBeVisible();
      await expect(modal).toBeHidden();

      await shipmentRow(page, trackingNumber).getByRole('button', { name: `View shipment ${trackingNumber}` }).click();
      const view = dialog(page, `Shipment ${trackingNumber}`);
      await expect(view).toBeVisible();
      await expect(definition(view, 'Carrier')).toHaveText('Maersk');
      await expect(definition(view, 'Destination')).toHaveText('Toronto, Canada');
      await expect(definition(view, 'Total Freight')).toHaveText('$1,250.50');
      await expect(definition(view, 'Comments')).not.toContainText(NEW_SHIPMENT.comments);
      await expect(definition(view, 'Status')).toHaveText('In Transit');
      await expect(definition(view.getByRole('region', { name: 'Receiver' }), 'Phone')).toHaveText('+1 416 555 0199');
      await expect(definition(view, 'Total Volumetric Weight')).toHaveText(EXPECTED_TOTALS.volumetric);
      await expect(view.getByRole('table').locator('tbody tr')).toHaveCount(2);
      await expect(view.getByRole('region', { name: 'Shipment History' }).getByTestId('history-event')).toHaveCount(2);
      await keepScreenshot(page, join(SCREENSHOTS, 'admin-view-1280.png'));
      await page.keyboard.press('Escape');
      await expect(view).toBeHidden();
    });

    await test.step('delete it after the confirm', async () => {
      await shipmentRow(page, trackingNumber).getByRole('button', { name: `Delete shipment ${trackingNumber}` }).click();
      const confirm = page.getByRole('alertdialog', { name: `Delete shipment ${trackingNumber}?` });
      await expect(confirm).toContainText('Are you sure you want to delete this shipment?');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(toastWithText(page, 'Shipment deleted successfully')).toBeVisible();
      await expect(shipmentRow(page, trackingNumber)).toHaveCount(0);
      await expect(page.getByTestId('shipment-count')).toHaveText('0 shipments');
    });

    await test.step('sign out: back at the login page, and the dashboard redirects there', async () => {
      await page.getByRole('button', { name: 'Log out' }).click();
      await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Login');
      await page.goto(ADMIN_PATH);
      await expect(page).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
    });

    // Includes React warnings and Content-Security-Policy violations.
    expect(consoleErrors, 'errors in the browser console').toEqual([]);
  });

  test('a dismissed delete confirm keeps the shipment', { tag: ONE_MODE }, async ({ page }) => {
    await signIn(page);
    const first = page.getByRole('region', { name: 'Shipments' }).locator('tbody tr').first();
    const number = await first.getAttribute('data-tracking-number');
    await first.getByRole('button', { name: /^Delete shipment / }).click();
    await page.getByRole('alertdialog', { name: `Delete shipment ${number}?` }).getByRole('button', { name: 'Cancel' }).click();
    await expect(shipmentRow(page, number!)).toBeVisible();
    await expect(toastWithText(page, 'Shipment deleted successfully')).toHaveCount(0);
  });

  test("the form sets the language of the shipment's e-mails and of their tracking links", async ({ page, request }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Create Shipment' }).click();
    const modal = dialog(page, 'Create Shipment');
    await fillCreateForm(modal);
    const language = group(modal, 'Shipment').getByLabel('Language of e-mails');
    await expect(language).toHaveValue('en');
    await expect(language.locator('option')).toHaveText(['English', 'Español', 'Français', 'العربية']);
    await language.selectOption('es');
    await modal.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(toastWithText(page, 'Shipment created successfully')).toBeVisible();
    const panel = page.getByRole('status').filter({ hasText: 'Shipment created' });
    const number = (await definition(panel, 'Tracking Number').textContent())?.trim() ?? '';
    expect(number).toMatch(/^PSE\d{9}$/);

    const admin = await adminRpc(request, siteUrl());
    const incoming = await waitForEmail(admin, (e) => e.trackingNumber === number && !!e.templateParams.tracking_url, "the receiver's e-mail");
    expect(incoming.templateParams.language).toBe('es');
    expect(incoming.templateParams.tracking_url).toContain(`/es/track/${number}`);
  });

  test("the server's field messages are shown next to their inputs", async ({ page }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Create Shipment' }).click();
    const modal = dialog(page, 'Create Shipment');
    await fillCreateForm(modal);
    // A tel input accepts any text; the server is the one that refuses it.
    const shipperPhone = group(modal, 'Shipper').getByLabel('Phone');
    await shipperPhone.fill('call me maybe');
    await modal.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(toastWithText(page, 'Failed to create shipment')).toBeVisible();
    await expect(modal).toBeVisible();
    await expect(shipperPhone).toHaveAttribute('aria-invalid', 'true');
    await expect(shipperPhone).toHaveAccessibleDescription('must be a phone number of 5 to 20 digits');
    await expect(group(modal, 'Receiver').getByLabel('Phone')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(modal.getByRole('button', { name: 'Create', exact: true })).toBeEnabled();
  });

  test('the dashboard fits a 375 px screen', { tag: LAYOUT }, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await signIn(page);
    await expect(page.getByRole('region', { name: 'Shipments' }).locator('tbody tr').first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await keepScreenshot(page, join(SCREENSHOTS, 'admin-dashboard-375.png'), { fullPage: true });
    await page.getByRole('button', { name: 'Create Shipment' }).click();
    await expect(dialog(page, 'Create Shipment')).toBeVisible();
    await keepScreenshot(page, join(SCREENSHOTS, 'admin-create-375.png'));
  });
});

test.describe('admin users', () => {
  test('create a user; a non-admin never sees the dashboard; disable and enable', async ({ page, browser }) => {
    const email = `clerk-${RUN}@example.com`;
    const password = 'clerk-Passw0rd-2030';
    await signIn(page);
    await page.getByRole('link', { name: 'Users' }).click();
    await expect(page).toHaveURL(new RegExp(`${USERS_PATH}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    const table = page.getByRole('region', { name: 'Users' });
    await expect(table.locator(`tr[data-email="${adminEmail()}"]`)).toContainText('Admin');

    const form = page.getByRole('form', { name: 'Create User' });
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Name').fill('Casey Clerk');
    await form.getByLabel('Role').selectOption({ label: 'User' });
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Create User' }).click();
    await expect(toastWithText(page, 'User created successfully')).toBeVisible();
    const row = table.locator(`tr[data-email="${email}"]`);
    await expect(row).toContainText('Casey Clerk');
    await expect(row).toContainText('Active');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await keepScreenshot(page, join(SCREENSHOTS, 'admin-users-1280.png'), { fullPage: true });

    // The new user signs in elsewhere: signed in, but no dashboard.
    const other = await browser.newContext();
    const clerk = await other.newPage();
    await signIn(clerk, email, password);
    await expect(clerk.getByRole('heading', { level: 1 })).toHaveText('Administrator account required');
    await expect(clerk.getByRole('heading', { name: 'Shipments' })).toHaveCount(0);
    await clerk.getByRole('button', { name: 'Log out' }).click();
    await expect(clerk).toHaveURL(new RegExp(`${LOGIN_PATH}$`));

    // Disabled: the user cannot sign in any more.
    await row.getByRole('button', { name: `Disable user ${email}` }).click();
    await expect(row).toContainText('Disabled');
    await submitLogin(clerk, email, password);
    await expect(loginError(clerk)).toHaveText('This account has been disabled');

    await row.getByRole('button', { name: `Enable user ${email}` }).click();
    await expect(row).toContainText('Active');
    await other.close();
  });
});
