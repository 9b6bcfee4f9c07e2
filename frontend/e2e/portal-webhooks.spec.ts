// A customer's own webhooks on /portal/webhooks, at 1280 px (its layout at 390 px too), against a gateway that may
// reach a loopback receiver: a customer admin adds an endpoint, sees its secret once, sends a
// test that arrives signed, and hears of its own shipments only; in Arabic the page reads right
// to left; a customer user has no link and is told they may not.
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { PaymentMode, ShipmentMode, ShipmentType } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { adminEmail, adminPassword } from './support/admin';
import { CUSTOMER_PASSWORD, addCustomerUser, createCustomer, signInToPortal } from './support/customers';
import { LAYOUT } from './support/env';
import { startGateway, type RunningGateway } from './support/gateway';
import { startWebhookReceiver, verify, type WebhookReceiver } from './support/webhook-receiver';
import { adminRpc, rpc, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { dayFromToday } from './support/tracking';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { expectAccessible, expectNoSidewaysScroll } from './support/page-checks';

let gateway: RunningGateway;
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
  gateway = await startGateway({
    ADMIN_EMAIL: adminEmail(),
    ADMIN_PASSWORD: adminPassword(),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NOTIFY_POLL_MS: '50',
  });
});

test.afterAll(async () => {
  await gateway?.stop();
  await receiver?.stop();
});

/** The page in light and dark, as `portal-webhooks-<name>-<width>-<theme>.png`. */
async function shoot(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(page, join(SCREENSHOTS, `portal-webhooks-${name}-${width}-${theme}.png`), { fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

/** A customer and its admin; with `clerk`, a customer user too. */
async function customerWith(staff: Clients, company: string, admin: string, clerk?: string) {
  const customer = await createCustomer(staff, company, { name: 'Hana Hooks', email: admin });
  await Promise.all([
    addCustomerUser(staff, customer.id, admin, 'Hana Hooks', Role.CUSTOMER_ADMIN),
    clerk ? addCustomerUser(staff, customer.id, clerk, 'Cleo Clerk', Role.CUSTOMER_USER) : undefined,
  ]);
}

/** A shipment booked through the portal's API by the customer's user whose session `request` holds. */
async function book(request: APIRequestContext, receiverName: string): Promise<string> {
  const shipment = await rpc(request, gateway.url).portal.createShipment({
    shipment: {
      shipper: { name: 'Hana Hooks', address: '1 Dock Road', phone: '+1 555 0101', email: 'shipper@hooks.example' },
      receiver: { name: receiverName, address: '2 Canal Street', phone: '+1 555 0102', email: 'receiver@hooks.example' },
      origin: 'Boston',
      destination: 'Denver',
      type: ShipmentType.STANDARD,
      mode: ShipmentMode.LAND_SHIPPING,
      paymentMode: PaymentMode.CASH,
      pickupDate: dayFromToday(1),
      pickupTime: { hours: 9, minutes: 0 },
      packages: [{ quantity: 1, pieceType: 'Box', description: 'Books', lengthCm: 30, widthCm: 20, heightCm: 10, weightKg: 2 }],
    },
  });
  return shipment.trackingNumber;
}

/** A page of its own on this spec's gateway, signed in to the portal as `email`. */
async function portalPage(browser: Browser, viewport: { width: number; height: number }, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: gateway.url, serviceWorkers: 'block' });
  const page = await context.newPage();
  await signInToPortal(page, email);
  return page;
}

// The flow runs once, on a desktop; the phone has a layout check of the page below.
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

{
  const viewport = DESKTOP;
  test.describe(`the portal's webhooks at ${viewport.width} px`, () => {
    test("a customer admin's endpoint: secret once, a signed test, its shipments only; Arabic; a user may not", async ({ request, browser, playwright }) => {
      const run = `${viewport.width}-${Date.now()}`;
      const admin = `hooks.${run}@hooks.example`;
      const clerk = `clerk.${run}@hooks.example`;
      const other = `other.${run}@other.example`;
      const staff = await adminRpc(request, gateway.url);
      await Promise.all([
        customerWith(staff, `Hooks Co ${run}`, admin, clerk),
        customerWith(staff, `Other Co ${run}`, other),
      ]);
      const name = `Warehouse ERP ${run}`;
      const path = `/portal-hooks/${run}`;

      const page = await portalPage(browser, viewport, admin);
      await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' }).click();
      await expect(page).toHaveURL(/\/portal\/webhooks$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
      await expect(page).toHaveTitle(/Webhooks/);
      await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
      {
        // A customer admin's eight sections on one line.
        const nav = page.getByRole('navigation', { name: 'Portal' });
        const top = async (name: string) => (await nav.getByRole('link', { name }).boundingBox())!.y;
        expect(Math.abs((await top('Webhooks')) - (await top('Shipments')))).toBeLessThan(4);
      }
      const unlabelled = await page.locator('.webhook-form input').evaluateAll((inputs) =>
        (inputs as HTMLInputElement[]).filter((i) => !i.labels || i.labels.length === 0).map((i) => i.outerHTML),
      );
      expect(unlabelled).toEqual([]);

      const form = page.getByRole('form', { name: 'Add an endpoint' });
      await form.getByLabel('URL').fill(`${receiver.url}${path}`);
      await form.getByLabel('Description (optional)').fill(name);
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(toastWithText(page, 'Webhook endpoint added')).toBeVisible();
      const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'secret');
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByTestId('webhook-secret')).toBeHidden();
      await expect(page.locator('body')).not.toContainText(secret);

      const card = page.locator('.webhook-item', { hasText: name });
      await expect(card.getByText('Enabled', { exact: true })).toBeVisible();
      await card.getByRole('button', { name: `Send test event to ${name}` }).click();
      await expect(toastWithText(page, 'Test event queued')).toBeVisible();
      const deliveries = card.getByRole('region', { name: `Deliveries to ${receiver.url}${path}` });
      await expect(async () => {
        await deliveries.getByRole('button', { name: 'Refresh deliveries' }).click();
        await expect(deliveries.locator('.webhook-delivery').first()).toContainText('Sent', { timeout: 1000 });
      }).toPass({ timeout: 15_000 });
      await expect(deliveries.locator('.webhook-delivery').first()).toContainText('Test event');
      const tested = receiver.received.find((d) => d.path === path);
      expect(JSON.parse(tested!.body)).toMatchObject({ type: 'webhook.test' });
      expect(verify(secret, tested!.headers, tested!.body)).toBe(true);

      // Another customer's shipment first, then this one's: only this one's reaches the endpoint.
      const otherApi = await playwright.request.newContext();
      await rpc(otherApi, gateway.url).sessions.createSession({ email: other, password: CUSTOMER_PASSWORD });
      const theirs = await book(otherApi, 'Theo Theirs');
      await otherApi.dispose();
      const mine = await book(page.context().request, 'Mia Mine');
      await expect
        .poll(() => receiver.received.filter((d) => d.path === path && d.body.includes(mine)).map((d) => JSON.parse(d.body).type as string), {
          message: `shipment.created of ${mine}`,
          timeout: 15_000,
        })
        .toContain('shipment.created');
      expect(receiver.received.filter((d) => d.body.includes(theirs))).toEqual([]);
      const created = receiver.received.find((d) => d.path === path && d.body.includes(mine))!;
      expect(verify(secret, created.headers, created.body)).toBe(true);
      await expect(async () => {
        await deliveries.getByRole('button', { name: 'Refresh deliveries' }).click();
        await expect(deliveries.getByText(mine, { exact: true })).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 10_000 });
      await expect(deliveries).not.toContainText(theirs);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, '.portal-area');
      await shoot(page, 'list');

      // In Arabic, right to left; the URL stays left to right and nothing scrolls sideways.
      await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
      await page.goto('/portal/webhooks');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('heading', { level: 1, name: 'خطافات الويب' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'البوابة' }).getByRole('link', { name: 'خطافات الويب' })).toBeVisible();
      await expect(page.getByRole('form', { name: 'إضافة عنوان' }).getByLabel('عنوان URL')).toHaveAttribute('dir', 'ltr');
      const arabicCard = page.locator('.webhook-item', { hasText: name });
      await expect(arabicCard.getByText('مفعّل', { exact: true })).toBeVisible();
      await expect(arabicCard.locator('.webhook-url')).toHaveAttribute('dir', 'ltr');
      await arabicCard.getByRole('button', { name: `عرض عمليات الإرسال إلى ${name}` }).click();
      await expect(arabicCard.locator('.webhook-delivery').first()).toContainText('أُرسل');
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, '.portal-area');
      await shoot(page, 'ar');
      await page.evaluate(() => localStorage.removeItem('language-choice'));
      await page.context().close();

      // A customer's user (not its admin): no link, and the page says they may not.
      const clerkPage = await portalPage(browser, viewport, clerk);
      await expect(clerkPage.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
      await clerkPage.goto('/portal/webhooks');
      await expect(clerkPage.getByTestId('webhooks-denied')).toHaveText("Only your company's administrators can manage webhooks.");
      await expect(clerkPage.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
      await clerkPage.context().close();
    });
  });
}

test.describe(`the portal's webhooks at ${PHONE.width} px`, { tag: LAYOUT }, () => {
  test('the form, a new endpoint with its secret and its card fit the screen; in Arabic too', async ({ request, browser }) => {
    const run = `${PHONE.width}-${Date.now()}`;
    const admin = `hooks.${run}@hooks.example`;
    await customerWith(await adminRpc(request, gateway.url), `Hooks Co ${run}`, admin);
    const name = `Warehouse ERP ${run}`;

    const page = await portalPage(browser, PHONE, admin);
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible();
    await expectNoSidewaysScroll(page);
    const form = page.getByRole('form', { name: 'Add an endpoint' });
    await form.getByLabel('URL').fill(`${receiver.url}/portal-hooks/${run}`);
    await form.getByLabel('Description (optional)').fill(name);
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
    await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'secret');
    await page.getByRole('button', { name: 'Done' }).click();
    const card = page.locator('.webhook-item', { hasText: name });
    await expect(card.getByText('Enabled', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: `Send test event to ${name}` })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'list');

    await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
    await page.goto('/portal/webhooks');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'خطافات الويب' })).toBeVisible();
    await expect(page.locator('.webhook-item', { hasText: name }).locator('.webhook-url')).toHaveAttribute('dir', 'ltr');
    await expectNoSidewaysScroll(page);
    await shoot(page, 'ar');
    await page.context().close();
  });
});
