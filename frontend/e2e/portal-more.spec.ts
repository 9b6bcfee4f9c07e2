// The portal's address book, pickups and notification choices, end to end: a customer admin
// adds and imports addresses, books a shipment to a receiver from the book, requests its pickup
// (a closed day refused first), and saves e-mail choices; a customer user reads the book only.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { addCustomerUser, createCustomer, customerPortal, signInToPortal, staffClients } from './support/customers';
import { flowAt, layoutUnlessDesktop } from './support/env';
import { toastWithText } from './support/track-page';
import { dayFromToday } from './support/tracking';

const SHOTS = process.env.E2E_SCREENSHOTS;
const iso = (d: { year: number; month: number; day: number }) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/** The page in light and dark, full length, as `<name>-<width>-<theme>.png`. */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.screenshot({ path: join(SHOTS, `${name}-${width}-${theme}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

/** `YYYY-MM-DD` as the API's date. */
function isoDate(text: string) {
  const [year, month, day] = text.split('-').map(Number);
  return { year, month, day };
}

/** The first date from today + 1 that falls on ISO weekday `n` (1 Monday .. 7 Sunday), and one that does not. */
function days(n: number) {
  for (let offset = 1; offset <= 7; offset++) {
    const d = dayFromToday(offset);
    const weekday = ((new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7) + 1;
    if (weekday === n) return { closed: iso(d), open: iso(dayFromToday(offset + 1)) };
  }
  throw new Error('no such weekday');
}

async function importCsv(page: Page, csv: string) {
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('CSV file').setInputFiles({ name: 'book.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await dialog.getByRole('button', { name: 'Import CSV' }).click();
  return dialog;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`the portal's address book and pickups at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an admin fills the book, books from it, requests a pickup and saves e-mail choices', layoutUnlessDesktop(viewport), async ({ page, request, browser, playwright }) => {
      flowAt(page, 1280);
      test.setTimeout(120_000);
      const run = `${viewport.width}-${Date.now()}`;
      const admin = `boss.${run}@acme.example`;
      const user = `clerk.${run}@acme.example`;
      const staff = await staffClients(request);
      const customer = await createCustomer(staff, `Acme More ${run}`, { name: 'Bo Boss', email: admin });
      await Promise.all([
        addCustomerUser(staff, customer.id, admin, 'Bo Boss', Role.CUSTOMER_ADMIN),
        addCustomerUser(staff, customer.id, user, 'Cleo Clerk', Role.CUSTOMER_USER),
      ]);

      await signInToPortal(page, admin);
      await page.getByRole('link', { name: 'Address book' }).click();
      await expect(page).toHaveURL(/\/portal\/address-book$/);
      await expect(page.getByText('No addresses found.')).toBeVisible();

      // One added by hand.
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Kind').selectOption({ label: 'Receiver' });
      await dialog.getByLabel('Name').fill(`Jan Jansen ${run}`);
      await dialog.getByLabel('Address').fill('Dam Square 1, Amsterdam');
      await dialog.getByLabel('Phone').fill('+31 20 555 7390');
      await dialog.getByLabel('Email').fill(`jan.${run}@example.nl`);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.locator('.address-book-entry')).toHaveCount(1);
      await shoot(page, 'address-book');

      // A file with one bad row: its errors, nothing added; then a good one.
      const header = 'kind,name,address,phone,email';
      const bad = await importCsv(page, `${header}\nsender,Depot ${run},2 Quay,,depot@example.com\nreceiver,Kim,3 Lane,,not-an-email\n`);
      await expect(bad.getByRole('alert')).toContainText('Row 2, email:');
      await shoot(page, 'address-book-import-errors');
      await bad.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.locator('.address-book-entry')).toHaveCount(1);
      const good = await importCsv(page, `${header}\nsender,Depot ${run},2 Quay,,depot@example.com\nreceiver,Kim ${run},3 Lane,,kim@example.com\n`);
      await expect(good).toBeHidden();
      await expect(toastWithText(page, '2 addresses imported')).toBeVisible();
      await expect(page.locator('.address-book-entry')).toHaveCount(3);
      await page.getByLabel('Kind').selectOption({ label: 'Senders' });
      await expect(page.locator('.address-book-entry')).toHaveCount(1);
      await page.getByLabel('Kind').selectOption({ label: 'All' });
      await page.getByLabel('Search').fill('Quay');
      await expect(page.locator('.address-book-entry')).toHaveCount(1);
      await page.getByLabel('Search').fill('');

      // Edited (a bad e-mail shown next to its field first), then one deleted after a confirmation.
      await page.getByRole('button', { name: `Edit Depot ${run}` }).click();
      const edit = page.getByRole('dialog');
      await edit.getByLabel('Email').fill('depot@');
      await edit.getByLabel('Phone').fill('+1 555 0199');
      await edit.evaluate((dialog) => dialog.querySelector('form')?.setAttribute('novalidate', ''));
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit.locator('#entry-email-error')).toBeVisible();
      await edit.getByLabel('Email').fill('depot@example.com');
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit).toBeHidden();
      await expect(page.locator('.address-book-entry', { hasText: `Depot ${run}` })).toContainText('+1 555 0199');
      await page.getByRole('button', { name: `Delete Kim ${run}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.locator('.address-book-entry')).toHaveCount(2);

      // A booking to a receiver from the book.
      await page.getByRole('link', { name: 'Book a shipment' }).click();
      const receiver = page.getByRole('group', { name: 'Receiver' });
      await receiver.getByLabel('Choose from address book').selectOption({ label: `Jan Jansen ${run} — Dam Square 1, Amsterdam` });
      await expect(receiver.getByLabel('Name')).toHaveValue(`Jan Jansen ${run}`);
      await expect(receiver.getByLabel('Email')).toHaveValue(`jan.${run}@example.nl`);
      await page.getByLabel('Origin').fill('Port City');
      await page.getByLabel('Destination').fill('Amsterdam, Netherlands');
      const firstPackage = page.getByRole('group', { name: 'Package 1' });
      await firstPackage.getByLabel('Piece Type').fill('Box');
      await firstPackage.getByLabel('Description').fill('Tiles');
      await firstPackage.getByLabel('Length (cm)').fill('50');
      await firstPackage.getByLabel('Width (cm)').fill('40');
      await firstPackage.getByLabel('Height (cm)').fill('30');
      await firstPackage.getByLabel('Weight (kg)').fill('12.5');
      await page.getByLabel('Pickup Date').fill(iso(dayFromToday(2)));
      await page.getByLabel('Pickup Time').fill('09:30');
      await page.getByRole('button', { name: 'Book shipment' }).click();
      await expect(page).toHaveURL(/\/portal\/shipments\/[^/]+$/);
      const trackingNumber = (await page.getByTestId('portal-tracking-number').textContent())!.trim();
      const shipmentPage = page.url();
      const shipmentId = new URL(shipmentPage).pathname.split('/').pop()!;

      // Its pickup: a closed day refused next to the date, an open one requested.
      const portal = await customerPortal(request, admin);
      const settings = await portal.getPickupSettings({});
      const { closed, open } = days(settings.closedWeekdays[0]);
      await page.getByRole('link', { name: 'Request a pickup' }).click();
      await expect(page).toHaveURL(/\/portal\/pickups\/new\?shipment=/);
      await expect(page.getByLabel('Address')).toHaveValue('1 Dock Road, Port City');
      await expect(page.getByRole('checkbox', { name: new RegExp(trackingNumber) })).toBeChecked();
      await page.getByLabel('Area (town or district)').fill('Port City');
      await page.getByLabel('Date').fill(closed);
      await page.getByLabel('Number of parcels').fill('2');
      await shoot(page, 'pickup-request');
      await page.getByRole('button', { name: 'Request pickup' }).click();
      await expect(page.locator('#pickup-date-error')).toBeVisible();
      await page.getByLabel('Date').fill(open);
      await page.getByRole('button', { name: 'Request pickup' }).click();
      await expect(page).toHaveURL(/\/portal\/pickups$/);
      await expect(page.locator('.Toastify').getByText(/^Pickup requested for /)).toBeVisible();
      await expect(page.getByTestId('pickup')).toHaveCount(1);
      await expect(page.getByTestId('pickup')).toContainText('Requested');
      await expect(page.getByTestId('pickup')).toContainText('2 parcels');
      await shoot(page, 'pickups');

      // Staff confirm and collect it: the customer sees the pickup collected and the shipment
      // moved to in transit at the pickup's area, with its history entry.
      // (A context of their own: `request` is signed in as the customer now.)
      const staffRequest = await playwright.request.newContext();
      const desk = await staffClients(staffRequest);
      const onThatDay = await desk.pickups.listPickups({ date: isoDate(open), area: 'Port City', pageSize: 100 });
      const queued = onThatDay.pickups.find((p) => p.shipmentIds.includes(shipmentId));
      expect(queued, 'the pickup is in the staff queue').toBeDefined();
      await desk.pickups.confirmPickup({ id: queued!.id });
      await desk.pickups.completePickup({ id: queued!.id });
      await staffRequest.dispose();
      await page.reload();
      await expect(page.getByTestId('pickup')).toContainText('Collected');
      await page.goto(shipmentPage);
      await expect(page.locator('.portal-status [data-status]')).toHaveAttribute('data-status', 'in_transit');
      await expect(page.locator('.portal-status')).toContainText('Port City');
      await expect(page.locator('.history-timeline, [aria-labelledby="portal-history-heading"]').getByText('Port City').first()).toBeVisible();
      await shoot(page, 'portal-shipment-collected');

      // E-mail choices saved and read back.
      await page.getByRole('link', { name: 'Notifications' }).click();
      await page.getByLabel('Delayed').check();
      await page.getByLabel('Delivered').uncheck();
      await page.getByLabel('E-mail language').selectOption('es');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(toastWithText(page, 'Saved')).toBeVisible();
      await page.reload();
      await expect(page.getByLabel('Delayed')).toBeChecked();
      await expect(page.getByLabel('Delivered')).not.toBeChecked();
      await expect(page.getByLabel('E-mail language')).toHaveValue('es');
      await shoot(page, 'notifications');

      // In Arabic, right to left.
      await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
      await page.goto('/portal/address-book');
      await expect(page.getByRole('heading', { level: 1, name: 'دفتر العناوين' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await shoot(page, 'address-book-ar');
      await page.goto('/portal/pickups/new');
      await expect(page.getByText('الاستلام في اليوم نفسه حتى الساعة')).toBeVisible();
      await shoot(page, 'pickup-request-ar');
      await page.goto(`/portal/labels?ids=${shipmentId}&format=label`);
      await expect(page.getByRole('heading', { level: 1, name: 'ملصقات الشحن' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'طباعة' })).toBeEnabled();
      await expect(page.getByTestId('tracking-number')).toHaveText(trackingNumber);

      // A customer user reads the book only.
      const context = await browser.newContext({ viewport });
      const clerk = await context.newPage();
      await signInToPortal(clerk, user);
      await clerk.goto('/portal/address-book');
      await expect(clerk.locator('.address-book-entry')).toHaveCount(2);
      await expect(clerk.getByText("Your company's administrators can change the address book.")).toBeVisible();
      await expect(clerk.getByRole('button', { name: 'Add', exact: true })).toHaveCount(0);
      await expect(clerk.getByRole('button', { name: 'Import CSV' })).toHaveCount(0);
      await expect(clerk.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
      await context.close();
    });
  });
}
