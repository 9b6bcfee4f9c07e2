// API keys, end to end at 1280 px (and the pages' layout at 390 px): a customer admin makes a key on /portal/api-keys,
// sees its secret once, calls the API with it (its scope lets it read, not book), sees its usage,
// and revokes it (refused within 5 s); in Arabic, right to left; a customer user may not; an agent
// makes one in the back office for ShipmentService.
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { signIn } from './support/admin';
import { addCustomerUser, createCustomer, signInToPortal, staffClients } from './support/customers';
import { LAYOUT, siteUrl } from './support/env';
import type { Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { expectAccessible, expectNoSidewaysScroll } from './support/page-checks';

const STAFF_PASSWORD = 'a-Staff-Passw0rd-2026';

// Each test makes its own customer or staff user: they run side by side.
test.describe.configure({ mode: 'parallel' });

/** The page in light and dark, as `api-keys-<name>-<width>-<theme>.png`. */
async function shoot(page: Page, name: string, fullPage = true) {
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(page, join(SCREENSHOTS, `api-keys-${name}-${width}-${theme}.png`), { fullPage });
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

/** Every input of the Create form is named by a real <label>. */
async function expectRealLabels(page: Page) {
  const form = page.locator('.api-key-form');
  const unlabelled = await form.locator('input').evaluateAll((inputs) =>
    (inputs as HTMLInputElement[]).filter((i) => !i.labels || i.labels.length === 0).map((i) => i.outerHTML),
  );
  expect(unlabelled).toEqual([]);
}

/** A JSON (Connect) call with the key alone: no cookies, a context of its own. */
async function callWithKey(api: APIRequestContext, path: string, secret: string) {
  const response = await api.post(`${siteUrl()}${path}`, {
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
    data: '{}',
  });
  return { status: response.status(), body: await response.text() };
}

/** Fills the Create form and returns the secret shown. */
async function createKey(page: Page, name: string, scope: RegExp | string): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: scope }).check();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const panel = page.getByTestId('api-key-secret-panel');
  await expect(panel).toContainText('Copy this key now. You will not see it again.');
  await expect(panel.getByRole('button', { name: 'Copy' })).toBeVisible();
  const secret = (await page.getByTestId('api-key-secret').textContent()) ?? '';
  expect(secret).toMatch(/^lk_\S{20,}$/);
  return secret;
}

async function customerWith(staff: Clients, run: string, { clerk = true } = {}) {
  const admin = `keys.${run}@keys.example`;
  const user = `clerk.${run}@keys.example`;
  const customer = await createCustomer(staff, `Keys Co ${run}`, { name: 'Kim Keys', email: admin });
  await Promise.all([
    addCustomerUser(staff, customer.id, admin, 'Kim Keys', Role.CUSTOMER_ADMIN),
    clerk ? addCustomerUser(staff, customer.id, user, 'Cleo Clerk', Role.CUSTOMER_USER) : undefined,
  ]);
  return { admin, user };
}

// The flows run once, on a desktop; the phone has a layout check of each page of its own below.
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

{
  const viewport = DESKTOP;
  test.describe(`API keys at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("a customer admin's key: shown once, reads but cannot book, counted, revoked; in Arabic; a user may not", async ({ page, request, playwright, browser }) => {
      test.setTimeout(90_000);
      const run = `${viewport.width}-${Date.now()}`;
      const staff = await staffClients(request);
      const { admin, user } = await customerWith(staff, run);
      const name = `Warehouse ERP ${run}`;

      await signInToPortal(page, admin);
      await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'API keys' }).click();
      await expect(page).toHaveURL(/\/portal\/api-keys$/);
      await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
      await expect(page.getByText('No API keys yet.')).toBeVisible();
      await expectRealLabels(page);
      for (const scope of ['Read shipments', 'Book shipments', 'Request pickups', 'Manage the address book', 'Manage webhooks']) {
        await expect(page.getByRole('checkbox', { name: new RegExp(`^${scope}`) })).toBeVisible();
      }
      await expect(page.getByLabel('Expires on (optional)')).toHaveAttribute('type', 'date');

      // The server's word on an empty form shows next to the field.
      await page.getByRole('button', { name: 'Create API key' }).click();
      await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#api-key-name-error')).not.toBeEmpty();

      const secret = await createKey(page, name, /^Read shipments/);
      await expect(page.locator('#api-key-secret-title')).toBeFocused();
      const row = page.getByRole('region', { name: "Your company's API keys" }).locator(`tr[data-key-name="${name}"]`);
      await expect(row).toContainText('Active');
      await expect(row).toContainText('Never');
      await expect(row).toContainText(/\d[\d,]* calls a minute/);
      await expect(row).toContainText('Read shipments');
      const prefix = ((await row.getByTestId('api-key-prefix').textContent()) ?? '').replace('…', '');
      expect(prefix).toMatch(/^lk_/);
      expect(secret.startsWith(prefix)).toBe(true);
      expect(secret.length).toBeGreaterThan(prefix.length);
      await expect(row).not.toContainText(secret);
      await shoot(page, 'portal-secret');
      await expectAccessible(page, '.portal-area');
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByTestId('api-key-secret-panel')).toHaveCount(0);
      await expect(page.locator('body')).not.toContainText(secret);

      // The key alone: it reads shipments, and may not book (the scope named).
      const api = await playwright.request.newContext();
      expect((await callWithKey(api, '/logistics.v1.CustomerPortalService/ListShipments', secret)).status).toBe(200);
      const book = await callWithKey(api, '/logistics.v1.CustomerPortalService/CreateShipment', secret);
      expect(book.status).toBe(403);
      expect((JSON.parse(book.body) as { message?: string }).message).toContain('shipments.book');

      // After a reload the secret is nowhere; the usage arrives (the gateway reports within seconds).
      await page.reload();
      await expect(row).toContainText('Active');
      expect(await page.content()).not.toContain(secret);
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: 'Refresh' }).click();
            await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
            return (await row.getByTestId('api-key-calls-today').textContent())?.trim();
          },
          { message: "today's calls", timeout: 20_000, intervals: [1000] },
        )
        .toBe('1');
      await expect(row.getByTestId('api-key-calls-14-days')).toHaveText('1');
      await expect(row.getByTestId('api-key-last-used')).not.toHaveText('Never');
      // Per day: today's date (UTC) and its one call.
      await row.getByText('Per day', { exact: true }).click();
      const perDay = row.getByRole('list', { name: `Calls per day with ${name}` }).getByRole('listitem');
      await expect(perDay).toHaveCount(1);
      await expect(perDay.first().locator('span').last()).toHaveText('1');
      await shoot(page, 'portal-list');

      // Revoke asks first, naming the key; within 5 s the key is refused.
      // Every column in sight, Revoke included (the whole table at 1280 px; the phone's cards below).
      const revokeBox = (await row.getByRole('button', { name: `Revoke ${name}` }).boundingBox())!;
      const listBox = (await page.getByRole('region', { name: "Your company's API keys" }).boundingBox())!;
      expect(revokeBox.x).toBeGreaterThanOrEqual(listBox.x - 1);
      expect(revokeBox.x + revokeBox.width).toBeLessThanOrEqual(listBox.x + listBox.width + 1);
      await row.getByRole('button', { name: `Revoke ${name}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Revoke this API key?' });
      await expect(confirm).toContainText(`${name} stops working within seconds, for good.`);
      await shoot(page, 'portal-revoke-confirm', false);
      await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
      await expect(toastWithText(page, `${name} revoked.`)).toBeVisible();
      const revokedAt = Date.now();
      await expect(row.getByTestId('api-key-status')).toHaveText('Revoked');
      await expect(row.getByRole('button', { name: `Revoke ${name}` })).toHaveCount(0);
      await expect
        .poll(async () => (await callWithKey(api, '/logistics.v1.CustomerPortalService/ListShipments', secret)).status, {
          timeout: 5_000,
          intervals: [250],
        })
        .toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(5_000);
      await api.dispose();

      // In Arabic, right to left.
      await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
      await page.goto('/portal/api-keys');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('heading', { level: 1, name: 'مفاتيح API' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'البوابة' }).getByRole('link', { name: 'مفاتيح API' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'مفاتيح API لشركتك' }).locator(`tr[data-key-name="${name}"]`)).toContainText('مُلغى');
      await expect(page.getByRole('button', { name: 'إنشاء المفتاح' })).toBeVisible();
      await expectRealLabels(page);
      await expectNoSidewaysScroll(page);
      await shoot(page, 'portal-ar');
      await page.evaluate(() => localStorage.removeItem('language-choice'));

      // A customer's user (not its admin): no link, and the page says they may not.
      const userContext = await browser.newContext({ viewport, baseURL: siteUrl(), serviceWorkers: 'block' });
      const userPage = await userContext.newPage();
      await signInToPortal(userPage, user);
      await expect(userPage.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
      await expect(userPage.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'API keys' })).toHaveCount(0);
      await userPage.goto('/portal/api-keys');
      await expect(userPage.getByTestId('api-keys-denied')).toHaveText("Only your company's administrators can manage API keys.");
      await expect(userPage.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
      await userContext.close();
    });

    test("an agent's key calls ShipmentService: it reads, it may not create", async ({ page, request, playwright, browser }) => {
      const staff = await staffClients(request);
      const email = `agent-keys-${viewport.width}-${Date.now()}@example.com`;
      await staff.users.createUser({ user: { email, name: 'Ama Agent', role: Role.AGENT }, password: STAFF_PASSWORD });
      await signIn(page, email, STAFF_PASSWORD);
      await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'API keys' }).click();
      await expect(page).toHaveURL(/\/administration_and_development\/api-keys$/);
      await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
      await expect(page.getByRole('checkbox', { name: 'shipments.create', exact: true })).toHaveCount(0);
      await expectRealLabels(page);
      const name = `Agent script ${viewport.width}`;
      const secret = await createKey(page, name, 'shipments.read');
      await expect(page.getByRole('region', { name: 'Your API keys' }).locator(`tr[data-key-name="${name}"]`)).toContainText('Active');
      await expectNoSidewaysScroll(page);
      await shoot(page, 'staff');
      await expectAccessible(page, '.admin-main');

      const api = await playwright.request.newContext();
      expect((await callWithKey(api, '/logistics.v1.ShipmentService/ListShipments', secret)).status).toBe(200);
      expect((await callWithKey(api, '/logistics.v1.ShipmentService/CreateShipment', secret)).status).toBe(403);
      await api.dispose();

      // An admin's bar, with every section, keeps API keys on the line of Log out at 1280 px.
      {
        const adminContext = await browser.newContext({ viewport, baseURL: siteUrl(), serviceWorkers: 'block' });
        const adminPage = await adminContext.newPage();
        await signIn(adminPage);
        const link = adminPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'API keys' });
        const middle = (box: { y: number; height: number } | null) => box!.y + box!.height / 2;
        expect(Math.abs(middle(await link.boundingBox()) - middle(await adminPage.getByRole('button', { name: 'Log out' }).boundingBox()))).toBeLessThan(4);
        await adminContext.close();
      }
    });
  });
}

test.describe(`API keys at ${PHONE.width} px`, { tag: LAYOUT }, () => {
  test.use({ viewport: PHONE });

  test("a customer admin's page: the form, a new key's secret, its card with Revoke in sight; in Arabic; nothing scrolls sideways", async ({ page, request }) => {
    const run = `${PHONE.width}-${Date.now()}`;
    const staff = await staffClients(request);
    const { admin } = await customerWith(staff, run, { clerk: false });
    const name = `Warehouse ERP ${run}`;

    await signInToPortal(page, admin);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    await expect(page.getByText('No API keys yet.')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await createKey(page, name, /^Read shipments/);
    await expect(page.getByRole('button', { name: 'Done' })).toBeVisible();
    await shoot(page, 'portal-secret');
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Done' }).click();
    // The key's card, every field of it and its Revoke button inside the list.
    const list = page.getByRole('region', { name: "Your company's API keys" });
    const row = list.locator(`tr[data-key-name="${name}"]`);
    await expect(row).toContainText('Active');
    await expect(row).toContainText('Read shipments');
    const revoke = row.getByRole('button', { name: `Revoke ${name}` });
    await expect(revoke).toBeVisible();
    const revokeBox = (await revoke.boundingBox())!;
    const listBox = (await list.boundingBox())!;
    expect(revokeBox.x).toBeGreaterThanOrEqual(listBox.x - 1);
    expect(revokeBox.x + revokeBox.width).toBeLessThanOrEqual(listBox.x + listBox.width + 1);
    await expectNoSidewaysScroll(page);
    await shoot(page, 'portal-list');

    await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
    await page.goto('/portal/api-keys');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'مفاتيح API' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'مفاتيح API لشركتك' }).locator(`tr[data-key-name="${name}"]`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'إنشاء المفتاح' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'portal-ar');
  });

  test("a staff member's page: the form and a new key's row, nothing scrolls sideways", async ({ page, request }) => {
    const staff = await staffClients(request);
    const email = `agent-keys-${PHONE.width}-${Date.now()}@example.com`;
    await staff.users.createUser({ user: { email, name: 'Ama Agent', role: Role.AGENT }, password: STAFF_PASSWORD });
    await signIn(page, email, STAFF_PASSWORD);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    const name = `Agent script ${PHONE.width}`;
    await createKey(page, name, 'shipments.read');
    await expect(page.getByRole('region', { name: 'Your API keys' }).locator(`tr[data-key-name="${name}"]`)).toContainText('Active');
    await expectNoSidewaysScroll(page);
    await shoot(page, 'staff');
  });
});
