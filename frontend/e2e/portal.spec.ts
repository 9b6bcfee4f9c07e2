// The customers' portal, end to end: staff create a customer and invite a user (API), the
// invitee sets a password from the e-mailed link, signs in, books a shipment, prints its label
// and watches a staff change arrive; another customer's user never sees it. The flows at 1280 px;
// the screens' layout at 390 px.
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CustomerPortalService } from '../src/gen/logistics/v1/customer_portal_service_pb';
import { CustomerService } from '../src/gen/logistics/v1/customer_service_pb';
import { PaymentMode, ShipmentMode, ShipmentStatus, ShipmentType, type Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { ADMIN_PATH, adminEmail, adminPassword } from './support/admin';
import { LAYOUT, siteUrl } from './support/env';
import { adminRpc, fetchThrough, listEmails, rpc, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { dayFromToday } from './support/tracking';

const PASSWORD = 'portal-Passw0rd-2026';
/** Where the screens are kept, light and dark, when E2E_SCREENSHOTS names a folder. */
const SHOTS = process.env.E2E_SCREENSHOTS;
const READY = 'Your account is ready. Sign in to continue.';

type Staff = Clients & { customers: Client<typeof CustomerService> };

async function staffClients(request: APIRequestContext): Promise<Staff> {
  const clients = await adminRpc(request, siteUrl());
  const transport = createGrpcWebTransport({ baseUrl: siteUrl(), fetch: fetchThrough(request, siteUrl()) });
  return { ...clients, customers: createClient(CustomerService, transport) };
}

/** A new customer and an invitation for `email`; resolves with the link's path and fragment. */
async function inviteCustomerUser(staff: Staff, company: string, email: string, name: string) {
  const customer = await staff.customers.createCustomer({
    customer: {
      name: company,
      billingAddress: `1 Dock Road, Port City`,
      contacts: [{ name, email, phone: '+1 555 0100' }],
      defaultPaymentMode: PaymentMode.CASH,
    },
  });
  await staff.customers.createCustomerInvitation({
    invitation: { customerId: customer.id, email, name, role: Role.CUSTOMER_ADMIN },
    languageCode: 'en',
  });
  // The outbox holds the e-mail at once; its text carries the link.
  let link = '';
  await expect
    .poll(
      async () => {
        const mail = (await listEmails(staff)).find((n) => n.toEmail === email);
        link = /https?:\/\/\S+?(\/(?:[a-z]{2}\/)?invitation#\S+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
        return link;
      },
      { message: `the invitation e-mail to ${email}` },
    )
    .not.toBe('');
  return { customer, link };
}

/** A customer's user, signed in through the API in their own request context. */
async function customerPortal(request: APIRequestContext, email: string) {
  const clients = rpc(request, siteUrl());
  await clients.sessions.createSession({ email, password: PASSWORD });
  const transport = createGrpcWebTransport({ baseUrl: siteUrl(), fetch: fetchThrough(request, siteUrl()) });
  return createClient(CustomerPortalService, transport);
}

/** The page in light and dark, full length, as `<name>-<width>-<theme>.png`. */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  const width = page.viewportSize()!.width;
  const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  for (const theme of ['light', 'dark'] as const) {
    // The site's own switch (lib/theme.ts): the `dark` class on <html>.
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await page.screenshot({ path: join(SHOTS, `${name}-${width}-${theme}.png`), fullPage: true, animations: 'disabled' });
  }
  await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), wasDark);
}

async function signInToPortal(page: Page, email: string) {
  await page.goto('/portal/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Customer sign-in' })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/portal$/);
}

// The flows run once, on a desktop; the phone has a layout check of the portal's screens below.
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page does not scroll sideways').toBeLessThanOrEqual(0);
}

{
  const viewport = DESKTOP;
  test.describe(`the portal at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an invited user sets a password, books a shipment, prints its label and sees staff move it', async ({ page, request }) => {
      test.setTimeout(90_000);
      const run = `${viewport.width}-${Date.now()}`;
      const email = `buyer.${run}@acme.example`;
      const company = `Acme Imports ${run}`;
      const staff = await staffClients(request);
      const { link } = await inviteCustomerUser(staff, company, email, 'Ana Buyer');

      // The invitation page: who invited whom, the name prefilled, the passwords checked.
      await page.goto(link);
      await expect(page.getByTestId('invitation-heading')).toHaveText(`${company} invited you`);
      await expect(page.getByText(email)).toBeVisible();
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ana Buyer');
      await shoot(page, 'invitation');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(`${PASSWORD}!`);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByText('Passwords do not match')).toBeVisible();
      await shoot(page, 'invitation-mismatch');
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();

      // The sign-in page, the e-mail prefilled; the portal after it.
      await expect(page).toHaveURL(/\/portal\/login$/);
      await expect(toastWithText(page, READY)).toBeVisible();
      await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
      await shoot(page, 'portal-login');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(/\/portal$/);
      await expect(page.getByTestId('portal-company')).toHaveText(company);
      await expect(page.getByTestId('portal-user-name')).toHaveText('Ana Buyer');

      // The link is used: opened again, it says so.
      const again = await page.context().newPage();
      await again.goto(link);
      await expect(again.getByTestId('invitation-error')).toBeVisible();
      await expect(again.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
      await shoot(again, 'invitation-used');
      await again.close();

      // No shipments yet: the empty list leads to booking, the shipper prefilled.
      await expect(page.getByTestId('portal-empty')).toContainText('You have no shipments yet.');
      await shoot(page, 'portal-empty');
      await page.getByRole('link', { name: 'Book your first shipment' }).click();
      await expect(page).toHaveURL(/\/portal\/book$/);
      const shipper = page.getByRole('group', { name: 'Shipper' });
      await expect(shipper.getByLabel('Name')).toHaveValue(company);
      await expect(shipper.getByLabel('Email')).toHaveValue(email);
      await expect(page.getByLabel('Payment Mode')).toHaveValue('cash');
      await shoot(page, 'portal-book');
      const receiver = page.getByRole('group', { name: 'Receiver' });
      await receiver.getByLabel('Name').fill('Jan Jansen');
      await receiver.getByLabel('Phone').fill('+31 20 555 7390');
      await receiver.getByLabel('Address').fill(`Dam Square ${run}, Amsterdam`);
      await receiver.getByLabel('Email').fill(`jan.${run}@example.nl`);
      await page.getByLabel('Origin').fill('Port City');
      await page.getByLabel('Destination').fill('Amsterdam, Netherlands');
      await page.getByLabel('Shipment Mode').selectOption('air_shipping');
      const firstPackage = page.getByRole('group', { name: 'Package 1' });
      await firstPackage.getByLabel('Piece Type').fill('Box');
      await firstPackage.getByLabel('Description').fill(`Tiles ${run}`);
      await firstPackage.getByLabel('Length (cm)').fill('50');
      await firstPackage.getByLabel('Width (cm)').fill('40');
      await firstPackage.getByLabel('Height (cm)').fill('30');
      await firstPackage.getByLabel('Weight (kg)').fill('12.5');
      const pickup = dayFromToday(2);
      await page.getByLabel('Pickup Date').fill(`${pickup.year}-${String(pickup.month).padStart(2, '0')}-${String(pickup.day).padStart(2, '0')}`);
      await page.getByLabel('Pickup Time').fill('09:30');
      await page.getByRole('button', { name: 'Book shipment' }).click();

      // Booked: its page, pending, its number in the toast.
      await expect(page).toHaveURL(/\/portal\/shipments\/[^/]+$/);
      const trackingNumber = (await page.getByTestId('portal-tracking-number').textContent())!.trim();
      expect(trackingNumber).not.toBe('');
      await expect(toastWithText(page, `Shipment booked: ${trackingNumber}`)).toBeVisible();
      await expect(page.locator('.portal-status [data-status]')).toHaveAttribute('data-status', 'pending');
      const shipmentUrl = page.url();
      await shoot(page, 'portal-shipment');

      // Its label at once, through the portal's service.
      await page.getByRole('link', { name: 'Print label' }).click();
      await expect(page).toHaveURL(/\/portal\/labels\?ids=[^&]+&format=label$/);
      await expect(page.getByTestId('tracking-number')).toHaveText(trackingNumber);
      await shoot(page, 'portal-label');

      // The list shows it, searched by its number.
      await page.goto('/portal');
      await page.getByLabel('Search').fill(trackingNumber);
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === trackingNumber);
      await expect(page.getByTestId('portal-shipments').getByRole('link')).toHaveCount(1);
      await expect(page.getByTestId('portal-shipments')).toContainText(trackingNumber);
      await page.getByLabel('Search').fill('');
      await expect(page).toHaveURL((url) => !url.searchParams.has('q'));
      await expect(page.getByTestId('portal-shipments').getByRole('link')).toHaveCount(1);
      await shoot(page, 'portal-list');

      // Staff move it; the portal's view shows the new status.
      const id = new URL(shipmentUrl).pathname.split('/').pop()!;
      await staff.shipments.updateShipmentTracking({ id, status: ShipmentStatus.IN_TRANSIT, currentLocation: 'Lisbon hub', remarks: 'Collected' });
      await page.goto(shipmentUrl);
      await expect(page.locator('.portal-status [data-status]')).toHaveAttribute('data-status', 'in_transit');
      await expect(page.locator('.portal-status')).toContainText('Lisbon hub');

      // A staff page sends a customer's user back to the portal.
      await page.goto(`${ADMIN_PATH}/users`);
      await expect(page).toHaveURL(/\/portal$/);
      await page.goto('/administration_and_development/login');
      await expect(page).toHaveURL(/\/portal$/);
    });

    test("another customer's user sees none of the first's shipments", async ({ page, request, playwright }) => {
      const run = `${viewport.width}-${Date.now()}`;
      const staff = await staffClients(request);
      const first = await inviteCustomerUser(staff, `First Co ${run}`, `first.${run}@first.example`, 'Fay First');
      const second = await inviteCustomerUser(staff, `Second Co ${run}`, `second.${run}@second.example`, 'Sam Second');
      // The invitation in Arabic, right to left.
      await page.goto(`/ar${first.link}`);
      await expect(page.getByTestId('invitation-heading')).toContainText(`First Co ${run}`);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await shoot(page, 'invitation-ar');
      for (const invited of [first, second]) {
        await staff.users.acceptCustomerInvitation({ token: invited.link.split('#')[1], name: '', password: PASSWORD });
      }

      // The first customer books through the API.
      const firstContext = await playwright.request.newContext();
      const firstPortal = await customerPortal(firstContext, `first.${run}@first.example`);
      const booked: Shipment = await firstPortal.createShipment({
        shipment: {
          shipper: { name: 'Fay First', address: '1 First Street', phone: '+1 555 0101', email: `first.${run}@first.example` },
          receiver: { name: 'Rita Receiver', address: '2 Second Street', phone: '+1 555 0102', email: `rita.${run}@example.com` },
          origin: 'Boston',
          destination: 'Denver',
          carrier: 'Parcel Shipping Express',
          type: ShipmentType.STANDARD,
          mode: ShipmentMode.LAND_SHIPPING,
          paymentMode: PaymentMode.CASH,
          product: 'Books',
          productQuantity: 1,
          packageCount: 1,
          weightKg: 2,
          expectedDeliveryDate: dayFromToday(5),
          departureTime: { hours: 9, minutes: 0 },
          pickupDate: dayFromToday(1),
          pickupTime: { hours: 9, minutes: 0 },
          packages: [{ quantity: 1, pieceType: 'Box', description: 'Books', lengthCm: 30, widthCm: 20, heightCm: 10, weightKg: 2 }],
        },
      });
      await firstContext.dispose();

      // The second customer's user: an empty list, the number found nowhere, the page not found.
      await signInToPortal(page, `second.${run}@second.example`);
      await expect(page.getByTestId('portal-company')).toHaveText(`Second Co ${run}`);
      await expect(page.getByTestId('portal-empty')).toBeVisible();
      await page.getByLabel('Search').fill(booked.trackingNumber);
      await expect(page.getByTestId('portal-empty')).toHaveText('No shipments match these filters.');
      await page.goto(`/portal/shipments/${booked.id}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Shipment not found' })).toBeVisible();
      await expect(page.getByText(booked.trackingNumber)).toHaveCount(0);
      await shoot(page, 'portal-not-found');
      await page.goto(`/portal/labels?ids=${booked.id}`);
      await expect(page.getByText(`Shipment not found: ${booked.id}`)).toBeVisible();

      // The portal in the language picked in this browser: Arabic, right to left.
      await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
      await page.goto('/portal');
      await expect(page.getByRole('heading', { level: 1, name: 'شحناتك' })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await shoot(page, 'portal-empty-ar');
    });
  });
}

test.describe(`the portal at ${PHONE.width} px`, { tag: LAYOUT }, () => {
  test.use({ viewport: PHONE });

  test('the invitation, the empty list, the booking form, a shipment, its label and the list fit the screen', async ({ page, request }) => {
    const run = `${PHONE.width}-${Date.now()}`;
    const email = `buyer.${run}@acme.example`;
    const company = `Acme Imports ${run}`;
    const staff = await staffClients(request);
    const { link } = await inviteCustomerUser(staff, company, email, 'Ana Buyer');

    await page.goto(link);
    await expect(page.getByTestId('invitation-heading')).toHaveText(`${company} invited you`);
    await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'invitation');
    await staff.users.acceptCustomerInvitation({ token: link.split('#')[1], name: 'Ana Buyer', password: PASSWORD });

    await signInToPortal(page, email);
    await expect(page.getByTestId('portal-company')).toHaveText(company);
    await expect(page.getByRole('link', { name: 'Book your first shipment' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'portal-empty');
    await page.getByRole('link', { name: 'Book your first shipment' }).click();
    await expect(page.getByRole('group', { name: 'Shipper' }).getByLabel('Name')).toHaveValue(company);
    await expect(page.getByRole('button', { name: 'Book shipment' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'portal-book');

    // A shipment booked by this user (through the API, in the page's session): its page and label.
    const booked = await rpc(page.context().request, siteUrl()).portal.createShipment({
      shipment: {
        shipper: { name: company, address: '1 Dock Road, Port City', phone: '+1 555 0100', email },
        receiver: { name: 'Jan Jansen', address: `Dam Square ${run}, Amsterdam`, phone: '+31 20 555 7390', email: `jan.${run}@example.nl` },
        origin: 'Port City',
        destination: 'Amsterdam, Netherlands',
        type: ShipmentType.STANDARD,
        mode: ShipmentMode.AIR_SHIPPING,
        paymentMode: PaymentMode.CASH,
        pickupDate: dayFromToday(2),
        pickupTime: { hours: 9, minutes: 30 },
        packages: [{ quantity: 1, pieceType: 'Box', description: `Tiles ${run}`, lengthCm: 50, widthCm: 40, heightCm: 30, weightKg: 12.5 }],
      },
    });
    await page.goto(`/portal/shipments/${booked.id}`);
    await expect(page.getByTestId('portal-tracking-number')).toHaveText(booked.trackingNumber);
    await expect(page.locator('.portal-status [data-status]')).toHaveAttribute('data-status', 'pending');
    await expect(page.getByRole('link', { name: 'Print label' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'portal-shipment');
    await page.getByRole('link', { name: 'Print label' }).click();
    await expect(page.getByTestId('tracking-number')).toHaveText(booked.trackingNumber);
    await shoot(page, 'portal-label');
    await page.goto('/portal');
    await expect(page.getByTestId('portal-shipments')).toContainText(booked.trackingNumber);
    await expect(page.getByLabel('Search')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shoot(page, 'portal-list');
  });
});

test('staff opening the portal land in the back office; signed out, the portal asks to sign in', async ({ page }) => {
  await page.goto('/portal');
  await expect(page).toHaveURL(/\/portal\/login$/);
  await page.goto('/portal/book');
  await expect(page).toHaveURL(/\/portal\/login$/);
  // Staff signing in on the customers' page land where they always do.
  await page.getByLabel('Email', { exact: true }).fill(adminEmail());
  await page.getByLabel('Password', { exact: true }).fill(adminPassword());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${ADMIN_PATH}$`));
  await page.goto('/portal/shipments/anything');
  await expect(page).toHaveURL(new RegExp(`${ADMIN_PATH}$`));
});

test('the header has a customer sign-in link, in the menu on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/es');
  await page.getByRole('button', { name: /menú/i }).click();
  await page.getByRole('link', { name: 'Acceso de clientes' }).click();
  await expect(page).toHaveURL(/\/portal\/login$/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/about');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Customer sign-in' })).toBeVisible();
});
