// The staff side of account requests and pickups: a visitor's request is approved or declined;
// a customer's pickup is assigned, confirmed and collected (its shipment moves to in transit);
// agents and managers have the queue; the pickup settings save.
import { mkdirSync } from 'node:fs';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { PaymentMode, ShipmentMode, ShipmentType } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { ADMIN_PATH, adminEmail, searchShipments, signIn } from './support/admin';
import { adminRpc, listEmails, rpc, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { dayFromToday, partiesFor } from './support/tracking';
import { flowAt } from './support/env';

const PASSWORD = 'a-Staff-Passw0rd-2026';
const REQUESTS_PATH = '/administration_and_development/customers/requests';
const PICKUPS_PATH = '/administration_and_development/pickups';
const SETTINGS_PATH = '/administration_and_development/settings';
const SHOTS = '/work/shots/staff-pickups';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const iso = (d: { year: number; month: number; day: number }) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** A fresh cookie jar, so each actor (visitor, customer user, admin) has its own session. */
async function jar(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL });
}

function adminNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Admin' });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page does not scroll sideways').toBeLessThanOrEqual(0);
}

/** Both themes of the page as it is, into the screenshots folder. */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  // Under CI only with E2E_SCREENSHOTS, as keepScreenshot (support/visual.ts): CI keeps no files,
  // and the pictures (both themes, most of them full length) cost the browser seconds a test.
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  const width = page.viewportSize()!.width;
  // The toasts of earlier steps would hide what the picture is for.
  for (const close of await page.locator('.Toastify__close-button').all()) await close.click().catch(() => {});
  await expect(page.locator('.Toastify__toast')).toHaveCount(0);
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${theme}.png`, fullPage });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

function requestCard(page: Page, company: string): Locator {
  return page.locator('li.account-request', { has: page.getByRole('heading', { name: company, exact: true }) });
}

/** A new staff member with `role`; a fresh e-mail per call. */
async function staffMember(admin: Clients, role: Role, name: string): Promise<string> {
  const email = `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await admin.users.createUser({ user: { email, name, role }, password: PASSWORD });
  return email;
}

/** A customer with one signed-in user (invited, the link's token read from the outbox). */
async function customerUser(admin: Clients, baseURL: string, run: string): Promise<{ name: string; clients: Clients }> {
  const name = `Pickup Co ${run}`;
  const customer = await admin.customers.createCustomer({ customer: { name } });
  const email = `pickup-user-${run}@example.com`;
  await admin.customers.createCustomerInvitation({
    invitation: { customerId: customer.id, email, name: 'Kofi Boateng', role: Role.CUSTOMER_USER },
  });
  let token = '';
  await expect
    .poll(async () => {
      const mail = (await listEmails(admin)).find((n) => n.toEmail === email);
      token = /#([^\s#]+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
      return token;
    }, { message: 'the invitation e-mail carries the link' })
    .not.toBe('');
  const clients = rpc(await jar(baseURL), baseURL);
  await clients.users.acceptCustomerInvitation({ token, name: 'Kofi Boateng', password: PASSWORD });
  await clients.sessions.createSession({ email, password: PASSWORD });
  return { name, clients };
}

/** A booking by the customer's user. */
async function book(customer: Clients, run: string): Promise<Shipment> {
  const { shipper, receiver } = partiesFor(run);
  return customer.portal.createShipment({
    shipment: {
      shipper,
      receiver,
      origin: 'Accra, Ghana',
      destination: 'Kumasi, Ghana',
      carrier: 'Road Express',
      type: ShipmentType.EXPRESS,
      mode: ShipmentMode.LAND_SHIPPING,
      packageCount: 2,
      product: `Shea butter ${run}`,
      productQuantity: 2,
      paymentMode: PaymentMode.CASH,
      totalFreightCents: 5_000n,
      weightKg: 8,
      expectedDeliveryDate: dayFromToday(10),
      departureTime: { hours: 8, minutes: 30 },
      pickupDate: dayFromToday(2),
      pickupTime: { hours: 9, minutes: 15 },
      packages: [{ quantity: 2, pieceType: 'Box', description: `Jars ${run}`, lengthCm: 30, widthCm: 20, heightCm: 20, weightKg: 4 }],
    },
  });
}

/** The first day from tomorrow on which pickups are open. */
async function openDay(customer: Clients): Promise<{ year: number; month: number; day: number }> {
  const settings = await customer.portal.getPickupSettings({});
  const closed = new Set(settings.closedDates.map(iso));
  for (let days = 1; days < 30; days++) {
    const day = dayFromToday(days);
    const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() || 7;
    if (!settings.closedWeekdays.includes(weekday) && !closed.has(iso(day))) return day;
  }
  throw new Error('no open day in the next month');
}

for (const viewport of [PHONE, DESKTOP]) {
  const px = `${viewport.width} px`;

  test.describe(`staff pickups at ${px}`, () => {
    test.use({ viewport });

    test(`an admin approves one account request and declines another with a reason at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 390);
      const run = `${Date.now().toString(36).slice(-6)}${viewport.width}`;
      const approved = `Kente Traders ${run}`;
      const declined = `Volta Crafts ${run}`;
      const visitor = rpc(await jar(baseURL!), baseURL!);
      for (const company of [approved, declined]) {
        await visitor.customers.createAccountRequest({
          accountRequest: {
            companyName: company,
            contactName: 'Efua Owusu',
            email: `efua-${company.split(' ')[0].toLowerCase()}-${run}@example.com`,
            phone: '+233 20 111 2222',
            address: '4 Market Street\nCape Coast',
            message: `About 40 parcels a week ${run}`,
            languageCode: 'fr',
          },
        });
      }

      await signIn(page);
      await page.goto(`${ADMIN_PATH}/customers`);
      const tab = page.getByRole('navigation', { name: 'Customers views' }).getByRole('link', { name: /^Account requests/ });
      await expect(tab.locator('.customers-tab-badge')).toHaveText(/^\d+( pending)?$|^99\+/);
      await tab.click();
      await expect(page).toHaveURL(new RegExp(`${REQUESTS_PATH}$`));
      await page.getByLabel('State').selectOption('pending');
      await expect(page).toHaveURL((url) => url.searchParams.get('state') === 'pending');

      await test.step('both requests are pending, newest first, with every detail', async () => {
        const card = requestCard(page, declined);
        await expect(card.getByText('Pending', { exact: true })).toBeVisible();
        await expect(card.getByText('Efua Owusu')).toBeVisible();
        await expect(card.getByRole('link', { name: `efua-volta-${run}@example.com` })).toBeVisible();
        await expect(card.getByText('+233 20 111 2222')).toBeVisible();
        await expect(card.getByText(`About 40 parcels a week ${run}`)).toBeVisible();
        await expect(card.getByText('Français')).toBeVisible();
        await expect(requestCard(page, approved)).toBeVisible();
        const names = await page.locator('.account-request-company').allTextContents();
        expect(names.indexOf(declined)).toBeLessThan(names.indexOf(approved));
        await expectNoSidewaysScroll(page);
        await shoot(page, 'account-requests');
      });

      await test.step('approving makes the customer and links to it', async () => {
        await requestCard(page, approved).getByRole('button', { name: 'Approve' }).click();
        const dialog = page.getByRole('alertdialog', { name: 'Approve request' });
        await expect(dialog).toContainText(
          `Approve ${approved}? A customer is created and efua-kente-${run}@example.com is invited as its customer admin.`,
        );
        await dialog.getByRole('button', { name: 'Approve' }).click();
        await expect(toastWithText(page, `${approved} approved: efua-kente-${run}@example.com is invited`)).toBeVisible();
        await expect(requestCard(page, approved)).toHaveCount(0);
        await page.getByLabel('State').selectOption('approved');
        const card = requestCard(page, approved);
        await expect(card.getByText('Approved', { exact: true })).toBeVisible();
        await card.getByRole('link', { name: `Open the customer ${approved}` }).click();
        await expect(page.getByRole('heading', { level: 1, name: approved })).toBeVisible();
      });

      await test.step('declining needs a reason, which is kept', async () => {
        await page.goto(`${REQUESTS_PATH}?state=pending`);
        await requestCard(page, declined).getByRole('button', { name: 'Decline' }).click();
        const dialog = page.getByRole('dialog', { name: `Decline ${declined}` });
        await expect(dialog.getByText(`The reason is e-mailed to efua-volta-${run}@example.com.`)).toBeVisible();
        await dialog.getByRole('button', { name: 'Decline' }).click();
        await expect(dialog.getByLabel('Reason')).toHaveAttribute('aria-invalid', 'true');
        await expect(dialog.getByText('Enter the reason')).toBeVisible();
        await dialog.getByLabel('Reason').fill('We do not serve Cape Coast yet.');
        await expect(dialog.getByText('Enter the reason')).toHaveCount(0);
        await shoot(page, 'decline-dialog', false);
        await dialog.getByRole('button', { name: 'Decline' }).click();
        await expect(toastWithText(page, `${declined} declined: efua-volta-${run}@example.com was e-mailed the reason`)).toBeVisible();
        await page.getByLabel('State').selectOption('declined');
        const card = requestCard(page, declined);
        await expect(card.getByText('Declined', { exact: true })).toBeVisible();
        await expect(card.getByText('We do not serve Cape Coast yet.')).toBeVisible();
      });
    });

    test(`a customer's pickup is assigned, confirmed and collected at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 1280);
      const run = `${Date.now().toString(36).slice(-6)}${viewport.width}`;
      const admin = await adminRpc(await jar(baseURL!), baseURL!);
      const customer = await customerUser(admin, baseURL!, run);
      const shipment = await book(customer.clients, run);
      const date = await openDay(customer.clients);
      const area = `Osu ${run}`;
      await customer.clients.portal.createPickup({
        pickup: {
          address: `7 Oxford Street ${run}, Accra`,
          area,
          date,
          windowStart: { hours: 9, minutes: 0 },
          windowEnd: { hours: 12, minutes: 0 },
          parcelCount: 2,
          shipmentIds: [shipment.id],
          notes: 'Ring at the gate',
        },
      });

      await signIn(page);
      await adminNav(page).getByRole('link', { name: 'Pickups' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Pickups' })).toBeVisible();
      await page.getByLabel('Date').fill(iso(date));
      await page.getByLabel('Area').fill(area);
      await expect(page).toHaveURL((url) => url.searchParams.get('date') === iso(date) && url.searchParams.get('area') === area);
      const row = page.locator('tr', { hasText: customer.name });
      await expect(row.getByText('Requested', { exact: true })).toBeVisible();
      await expect(row.locator('td[data-label="Parcels"]')).toHaveText('2');
      await expect(row.locator('td[data-label="Shipments"]')).toHaveText('1');
      await expect(row.locator('td[data-label="Agent"]')).toHaveText('Unassigned');
      await expect(row.locator('td[data-label="Area and address"]')).toContainText(area);
      await expect(row.getByText('Ring at the gate')).toBeVisible();
      await expectNoSidewaysScroll(page);
      const region = await page.getByRole('region', { name: 'Pickups' }).evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(region[0], 'every column of the queue is on screen').toBeLessThanOrEqual(region[1]);
      await shoot(page, 'pickups-queue');

      await test.step('assigned to the signed-in admin', async () => {
        await row.getByRole('button', { name: 'Assign' }).click();
        const dialog = page.getByRole('dialog', { name: `Assign the pickup of ${customer.name}` });
        await dialog.getByLabel('Agent or courier').selectOption({ label: `Me (${adminEmail()})` });
        await dialog.getByRole('button', { name: 'Assign' }).click();
        await expect(toastWithText(page, `Pickup assigned to ${adminEmail()}`)).toBeVisible();
        await expect(row.locator('td[data-label="Agent"]')).toHaveText(adminEmail());
      });

      await test.step('confirmed: the customer is e-mailed', async () => {
        await row.getByRole('button', { name: 'Confirm' }).click();
        await expect(toastWithText(page, 'Pickup confirmed: the customer was e-mailed')).toBeVisible();
        await expect(row.getByText('Confirmed', { exact: true })).toBeVisible();
        await expect(row.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
      });

      await test.step('collected: its shipment moves to in transit', async () => {
        await row.getByRole('button', { name: 'Mark collected' }).click();
        const dialog = page.getByRole('alertdialog', { name: 'Mark collected' });
        await expect(dialog).toContainText('Its 1 shipment moves to in transit.');
        await dialog.getByRole('button', { name: 'Mark collected' }).click();
        await expect(row.getByText('Collected', { exact: true })).toBeVisible();
        await expect(row.getByRole('button')).toHaveCount(0);
        await page.goto(ADMIN_PATH);
        await searchShipments(page, shipment.trackingNumber);
        const listed = page.getByRole('region', { name: 'Shipments' }).locator(`tr[data-tracking-number="${shipment.trackingNumber}"]`);
        await expect(listed.locator('.status-badge')).toHaveText('In Transit');
      });
    });

    test(`a pickup marked failed needs a reason at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 390);
      const run = `${Date.now().toString(36).slice(-6)}f${viewport.width}`;
      const admin = await adminRpc(await jar(baseURL!), baseURL!);
      const customer = await customerUser(admin, baseURL!, run);
      const date = await openDay(customer.clients);
      const area = `Labone ${run}`;
      await customer.clients.portal.createPickup({
        pickup: {
          address: `2 Ring Road ${run}, Accra`,
          area,
          date,
          windowStart: { hours: 13, minutes: 0 },
          windowEnd: { hours: 15, minutes: 30 },
          parcelCount: 1,
        },
      });
      await signIn(page);
      await page.goto(`${PICKUPS_PATH}?date=${iso(date)}&area=${encodeURIComponent(area)}`);
      const row = page.locator('tr', { hasText: customer.name });
      await row.getByRole('button', { name: 'Mark failed' }).click();
      const dialog = page.getByRole('dialog', { name: `Mark failed: the pickup of ${customer.name}` });
      await dialog.getByRole('button', { name: 'Mark failed' }).click();
      await expect(dialog.getByText('Enter the reason')).toBeVisible();
      await dialog.getByLabel('Reason').fill('Nobody at the address');
      await dialog.getByRole('button', { name: 'Mark failed' }).click();
      await expect(toastWithText(page, 'Pickup marked failed')).toBeVisible();
      await expect(row.getByText('Failed', { exact: true })).toBeVisible();
      await expect(row.getByText('Failed: Nobody at the address')).toBeVisible();
    });

    test(`a day with more pickups than a page loads the rest on Load more at ${px}`, async ({ page, baseURL }) => {
      // Paging is the same at any width: once is enough.
      test.skip(px !== '1280 px', 'paging, not layout');
      test.setTimeout(90_000);
      const run = `${px.replace(' ', '')}-${Date.now()}`;
      const admin = await adminRpc(await jar(baseURL!), baseURL!);
      const customer = await customerUser(admin, baseURL!, `paging-${run}`);
      const day = await openDay(customer.clients);
      const area = `Paging ${run}`;
      // One more than the server's largest page.
      for (let i = 0; i < 101; i++) {
        await customer.clients.portal.createPickup({
          pickup: { address: `${i + 1} Dock Road`, area, date: day, windowStart: { hours: 9, minutes: 0 }, windowEnd: { hours: 12, minutes: 0 }, parcelCount: 1 },
        });
      }
      await signIn(page);
      await page.goto(`${PICKUPS_PATH}?date=${iso(day)}&area=${encodeURIComponent(area)}`);
      const rows = page.locator('tbody tr');
      await expect(rows).toHaveCount(100);
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect(rows).toHaveCount(101);
      await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
    });

    test(`an agent and a manager have the pickups queue at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 390);
      const admin = await adminRpc(await jar(baseURL!), baseURL!);
      for (const [role, name] of [
        [Role.AGENT, 'agent'],
        [Role.MANAGER, 'manager'],
      ] as const) {
        const email = await staffMember(admin, role, name);
        await page.context().clearCookies();
        await signIn(page, email, PASSWORD);
        await adminNav(page).getByRole('link', { name: 'Pickups' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Pickups' })).toBeVisible();
        await expect(page.getByLabel('Date')).toHaveValue(new Date().toLocaleDateString('en-CA'));
      }
    });

    test(`the pickup settings save and reload at ${px}`, async ({ page, baseURL }) => {
      flowAt(page, 1280);
      const admin = await adminRpc(await jar(baseURL!), baseURL!);
      const before = await admin.pickups.getPickupSettings({});
      try {
        await signIn(page);
        await page.goto(SETTINGS_PATH);
        const form = page.getByRole('form', { name: 'Pickups' });
        // The cut-off and a far date only: other workers' pickups rely on the closed weekdays.
        await form.getByLabel('Same-day cut-off time (UTC)').fill('15:30');
        const sunday = form.getByRole('checkbox', { name: 'Sunday' });
        const wasClosed = await sunday.isChecked();
        await form.getByRole('button', { name: 'Add a closed date' }).click();
        const added = form.getByLabel(/^Closed date \d+$/).last();
        await added.fill('2031-12-25');
        await expectNoSidewaysScroll(page);
        await shoot(page, 'settings');
        await form.getByRole('button', { name: 'Save' }).click();
        await expect(toastWithText(page, 'Pickup settings saved')).toBeVisible();

        await page.reload();
        const reloaded = page.getByRole('form', { name: 'Pickups' });
        await expect(reloaded.getByLabel('Same-day cut-off time (UTC)')).toHaveValue('15:30');
        await expect(reloaded.getByRole('checkbox', { name: 'Sunday' })).toBeChecked({ checked: wasClosed });
        const dates = await reloaded.getByLabel(/^Closed date \d+$/).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
        expect(dates).toContain('2031-12-25');
      } finally {
        await admin.pickups.updatePickupSettings({ settings: before });
      }
    });
  });
}
