// Staff manage customers: an admin creates, edits, invites, suspends and reactivates one and
// attaches a shipment to it; a manager only reads; an agent has no Customers at all.
import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { ADMIN_PATH, signIn } from './support/admin';
import { adminRpc } from './support/rpc';
import { toastWithText } from './support/track-page';
import { flowAt } from './support/env';

const PASSWORD = 'a-Staff-Passw0rd-2026';
const CUSTOMERS_PATH = '/administration_and_development/customers';
const SHOTS = '/work/shots/staff-customers';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A new staff member with `role`, made by the first admin; a fresh e-mail per call. */
async function staffMember(request: APIRequestContext, baseURL: string, role: Role, name: string): Promise<string> {
  const admin = await adminRpc(request, baseURL);
  const email = `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await admin.users.createUser({ user: { email, name, role }, password: PASSWORD });
  return email;
}

function adminNav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Admin' });
}

function group(scope: Locator, name: string): Locator {
  return scope.getByRole('group', { name, exact: true });
}

/** The page does not scroll sideways. */
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
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.screenshot({ path: `${SHOTS}/${name}-${width}-${theme}.png`, fullPage });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** Every required input of the Create Shipment form. */
async function fillShipment(form: Locator, run: string): Promise<void> {
  for (const legend of ['Shipper', 'Receiver']) {
    const g = group(form, legend);
    await g.getByLabel('Name').fill(`${legend} ${run}`);
    await g.getByLabel('Address').fill('12 Rua Augusta, Lisbon');
    await g.getByLabel('Phone').fill('+351 21 000 0000');
    await g.getByLabel('Email').fill('party@example.com');
  }
  const details = group(form, 'Shipment');
  await details.getByLabel('Origin').fill(`Lisbon ${run}`);
  await details.getByLabel('Destination').fill('Toronto, Canada');
  await details.getByLabel('Carrier').fill('DHL');
  await details.getByLabel('Type of Shipment').selectOption('express');
  await details.getByLabel('Shipment Mode').selectOption('air_shipping');
  await details.getByLabel('Payment Mode').selectOption('cash');
  await details.getByLabel('Product', { exact: true }).fill('Ceramic tiles');
  const schedule = group(form, 'Schedule');
  await schedule.getByLabel('Expected Delivery Date').fill('2030-12-01');
  await schedule.getByLabel('Departure Time').fill('08:30');
  await schedule.getByLabel('Pickup Date').fill('2030-11-20');
  await schedule.getByLabel('Pickup Time').fill('14:05');
  const line = group(form, 'Package 1');
  await line.getByLabel('Piece Type').fill('Box');
  await line.getByLabel('Description').fill('Tiles');
  await line.getByLabel('Weight (kg)').fill('5');
}

for (const viewport of [PHONE, DESKTOP]) {
  const px = `${viewport.width} px`;

  test.describe(`customers at ${px}`, () => {
    test.use({ viewport });

    test(`an admin creates, edits, invites, suspends and reactivates a customer, and attaches a shipment at ${px}`, async ({ page }) => {
      flowAt(page, 390);
      const run = `${Date.now().toString(36).slice(-6)}${viewport.width}`;
      const name = `Acme ${run}`;
      const renamed = `Acme Group ${run}`;
      await signIn(page);
      await expect(adminNav(page).getByRole('link', { name: 'Customers' })).toHaveCount(1);
      await page.goto(CUSTOMERS_PATH);
      await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();

      await test.step('an empty name is refused at its input', async () => {
        await page.getByRole('button', { name: 'New customer' }).click();
        const dialog = page.getByRole('dialog', { name: 'New customer' });
        await expect(dialog.getByText('Assigned automatically when empty')).toBeVisible();
        await dialog.getByRole('button', { name: 'Create customer' }).click();
        await expect(dialog.getByLabel('Company name')).toHaveAttribute('aria-invalid', 'true');
        await expect(dialog.locator('#customer-name-error')).not.toBeEmpty();
        await expect(dialog).toBeVisible();
      });

      await test.step('a customer with a contact is created and shown on its page', async () => {
        const dialog = page.getByRole('dialog', { name: 'New customer' });
        await dialog.getByLabel('Company name').fill(name);
        await dialog.getByLabel('Billing address').fill('1 Harbour Road\nTema');
        await dialog.getByRole('button', { name: 'Add contact' }).click();
        const contact = group(dialog, 'Contact 1');
        await contact.getByLabel('Name').fill('Ama Mensah');
        await contact.getByLabel('E-mail').fill(`ama-${run}@example.com`);
        await contact.getByLabel('Phone').fill('+233 20 000 0000');
        await dialog.getByLabel('Default payment mode').selectOption('bank_transfer');
        await shoot(page, 'customer-dialog', false);
        await dialog.getByRole('button', { name: 'Create customer' }).click();
        await expect(toastWithText(page, `Customer ${name} created`)).toBeVisible();
        await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
        const details = page.getByRole('region', { name: 'Details', exact: true });
        await expect(details.getByText(/^C\d{8}$/)).toBeVisible();
        await expect(details.getByText('Bank Transfer')).toBeVisible();
        await expect(details.getByText('Ama Mensah')).toBeVisible();
      });

      await test.step('its name is edited', async () => {
        await page.getByRole('button', { name: 'Edit', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
        await dialog.getByLabel('Company name').fill(renamed);
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect(toastWithText(page, `Customer ${renamed} saved`)).toBeVisible();
        await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
      });

      await test.step('a user is invited', async () => {
        const email = `buyer-${run}@example.com`;
        await page.getByRole('button', { name: 'Invite user' }).click();
        const dialog = page.getByRole('dialog', { name: `Invite a user of ${renamed}` });
        await dialog.getByLabel('E-mail', { exact: true }).fill(email);
        await dialog.getByLabel('Name', { exact: true }).fill('Kofi Buyer');
        await dialog.getByLabel('Role', { exact: true }).selectOption({ label: 'Customer admin' });
        await expect(dialog.getByLabel('Language of the e-mail')).toHaveValue('en');
        await dialog.getByRole('button', { name: 'Send invitation' }).click();
        await expect(toastWithText(page, `Invitation sent to ${email}`)).toBeVisible();
        await expect(dialog).toHaveCount(0);
      });

      await test.step('it is suspended, then reactivated', async () => {
        const head = page.locator('.admin-page-head');
        await page.getByRole('button', { name: 'Suspend', exact: true }).click();
        const confirm = page.getByRole('alertdialog', { name: 'Suspend customer' });
        await shoot(page, 'suspend-confirm', false);
        await expect(confirm).toContainText(
          `Suspend ${renamed}? Their users are signed out within seconds and cannot sign in until you reactivate the customer.`,
        );
        await confirm.getByRole('button', { name: 'Suspend' }).click();
        await expect(head.getByText('Suspended', { exact: true })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Invite user' })).toBeDisabled();
        await page.getByRole('button', { name: 'Reactivate', exact: true }).click();
        await page.getByRole('alertdialog', { name: 'Reactivate customer' }).getByRole('button', { name: 'Reactivate' }).click();
        await expect(head.getByText('Active', { exact: true })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Invite user' })).toBeEnabled();
        await expectNoSidewaysScroll(page);
      });

      const customerUrl = page.url();
      await test.step('a shipment attached to it shows among its shipments', async () => {
        await page.goto(ADMIN_PATH);
        await page.getByRole('button', { name: 'Create Shipment' }).click();
        const form = page.getByRole('dialog', { name: 'Create Shipment' });
        await fillShipment(form, run);
        const details = group(form, 'Shipment');
        await details.getByLabel('Find a customer').fill(renamed);
        const select = details.getByLabel('Customer', { exact: true });
        await expect(select.locator('option', { hasText: renamed })).toHaveCount(1);
        await select.selectOption({ label: (await select.locator('option', { hasText: renamed }).textContent())! });
        await select.scrollIntoViewIfNeeded();
        await shoot(page, 'shipment-form-customer', false);
        await form.getByRole('button', { name: 'Create', exact: true }).click();
        await expect(toastWithText(page, 'Shipment created successfully')).toBeVisible();
        const trackingNumber = (await page.locator('.created-panel dd.mono').first().textContent())!.trim();

        await page.goto(customerUrl);
        const shipments = page.getByRole('region', { name: 'Shipments', exact: true });
        await expect(shipments.getByRole('link', { name: trackingNumber })).toBeVisible();
        await shoot(page, 'customer-page');

        await shipments.getByRole('link', { name: 'View shipments' }).click();
        await expect(page).toHaveURL((url) => url.pathname === ADMIN_PATH && url.searchParams.has('customer'));
        const chip = page.getByRole('group', { name: 'Active filters' });
        await expect(chip).toContainText(`Customer: ${renamed}`);
        const row = page.locator(`[data-tracking-number="${trackingNumber}"]`).first();
        await expect(row).toBeVisible();
        await expect(page.getByTestId('shipment-count')).toHaveText('1 shipment');
        await shoot(page, 'shipments-by-customer');
        await row.getByRole('button', { name: `View shipment ${trackingNumber}` }).click();
        const view = page.getByRole('dialog', { name: `Shipment ${trackingNumber}` });
        await expect(view.getByRole('link', { name: renamed })).toBeVisible();
        await view.getByRole('link', { name: renamed }).scrollIntoViewIfNeeded();
        await shoot(page, 'shipment-view-customer', false);
        await view.getByRole('button', { name: 'Close' }).click();

        await chip.getByRole('button', { name: `Remove the filter Customer: ${renamed}` }).click();
        await expect(page).toHaveURL((url) => !url.searchParams.has('customer'));
        await expect(chip).toHaveCount(0);
      });

      await page.goto(`${CUSTOMERS_PATH}?q=${encodeURIComponent(renamed)}`);
      await expect(page.getByRole('region', { name: 'Customers', exact: true }).getByRole('link', { name: renamed })).toBeVisible();
      await expect(page.getByLabel('Search')).toHaveValue(renamed);
      await expectNoSidewaysScroll(page);
      await shoot(page, 'customers-list');
      await page.goto(`${CUSTOMERS_PATH}?q=${encodeURIComponent(`nobody ${run}`)}`);
      await expect(page.getByText('No customers match. Change the search or the status filter.')).toBeVisible();
    });

    test(`a manager reads customers but changes nothing at ${px}`, async ({ page, request, baseURL }) => {
      flowAt(page, 1280);
      const run = `${Date.now().toString(36).slice(-6)}${viewport.width}`;
      const admin = await adminRpc(request, baseURL!);
      const customer = await admin.customers.createCustomer({ customer: { name: `Readonly ${run}` } });
      const email = await staffMember(request, baseURL!, Role.MANAGER, 'manager');
      await signIn(page, email, PASSWORD);
      await adminNav(page).getByRole('link', { name: 'Customers' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'New customer' })).toHaveCount(0);
      await page.getByLabel('Search').fill(customer.name);
      // The search has run (it is in the address) before a row of its answer is clicked.
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === customer.name);
      const rows = page.getByRole('region', { name: 'Customers', exact: true }).getByRole('link');
      await expect(rows).toHaveCount(1);
      await rows.filter({ hasText: customer.name }).click();
      await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Users', exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Shipments', exact: true })).toBeVisible();
      for (const action of ['Edit', 'Suspend', 'Reactivate', 'Invite user']) {
        await expect(page.getByRole('button', { name: action, exact: true })).toHaveCount(0);
      }
      await shoot(page, 'customer-page-manager');
    });

    test(`an agent has no Customers at ${px}`, async ({ page, request, baseURL }) => {
      flowAt(page, 390);
      const email = await staffMember(request, baseURL!, Role.AGENT, 'agent');
      await signIn(page, email, PASSWORD);
      await expect(adminNav(page).getByRole('link', { name: 'Shipments' })).toBeVisible();
      await expect(adminNav(page).getByRole('link', { name: 'Customers' })).toHaveCount(0);
      await page.goto(CUSTOMERS_PATH);
      await expect(page.getByRole('heading', { level: 1, name: 'Not available to your account' })).toBeVisible();
      await page.goto(`${CUSTOMERS_PATH}/anything`);
      await expect(page.getByRole('heading', { level: 1, name: 'Not available to your account' })).toBeVisible();
    });
  });
}
