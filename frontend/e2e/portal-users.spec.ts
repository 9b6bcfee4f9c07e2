// The portal's users page, Export CSV and proof-of-delivery images, end to end at 1280 px (the
// proof on a phone's screen too): a customer admin invites a user from /portal/users, who joins through the e-mailed link;
// disabled, their open page loses access within seconds; a customer user never sees the list;
// the export holds this customer's shipments only; a delivered shipment shows its signature.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Code, ConnectError, type Client } from '@connectrpc/connect';
import { expect, test, type Page } from '@playwright/test';
import type { CustomerPortalService } from '../src/gen/logistics/v1/customer_portal_service_pb';
import { PaymentMode, ShipmentMode, ShipmentStatus, ShipmentType, type Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { CUSTOMER_PASSWORD, addCustomerUser, createCustomer, customerPortal, signInToPortal, staffClients } from './support/customers';
import { flowAt, layoutUnlessDesktop, siteUrl } from './support/env';
import { listEmails, rpc, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { dayFromToday } from './support/tracking';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { parseCsv } from './support/csv';
import { expectAccessible } from './support/page-checks';

/** A real 40 × 40 PNG (a checkerboard), as proof-of-delivery.spec records. */
const PNG_40 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAoCAIAAAADnC86AAAARklEQVR42u3WsQ0AIAgEQHpncCVHdC4XsXcDCgzdJd8+Vz4x10ly90jy0w0wGAwuw32n8y4YDAbXYSMBBoP9XEYCDAa3ww9cR/+ZC7SLiQAAAABJRU5ErkJggg==',
  'base64',
);

/** The page in light and dark (full length unless a dialog is open), as `<name>-<width>-<theme>.png`. */
async function shoot(page: Page, name: string, fullPage = true) {
  const width = page.viewportSize()!.width;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(page, join(SCREENSHOTS, `portal-${name}-${width}-${theme}.png`), { fullPage });
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

/** The link of the newest invitation e-mail to `email`, as a path with its fragment. */
async function invitationLink(staff: Clients, email: string): Promise<string> {
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
  return link;
}

/** A shipment booked by a customer's user through the portal's API. */
function book(portal: Client<typeof CustomerPortalService>, run: string, receiver: string): Promise<Shipment> {
  return portal.createShipment({
    shipment: {
      shipper: { name: 'Bo Boss', address: '1 Dock Road', phone: '+1 555 0101', email: `shipper.${run}@example.com` },
      receiver: { name: receiver, address: '2 Canal Street', phone: '+1 555 0102', email: `receiver.${run}@example.com` },
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
}

/** Clicks Export CSV; resolves with the file's name and its tracking numbers (header checked). */
async function exportCsv(page: Page): Promise<{ name: string; numbers: string[] }> {
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  const text = readFileSync(await file.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true); // UTF-8 with a BOM, for spreadsheets
  const [header, ...rows] = parseCsv(text.slice(1)).filter((r) => r.some(Boolean));
  const column = header.indexOf('tracking_number');
  expect(column, `the header ${header.join(',')}`).toBeGreaterThanOrEqual(0);
  return { name: file.suggestedFilename(), numbers: rows.map((r) => r[column]) };
}

/** A customer with its admin (signed up through staff's invitation); resolves with the admin's e-mail. */
async function customerWithAdmin(staff: Clients, company: string, run: string, who: string): Promise<string> {
  const email = `${who}.${run}@${who}.example`;
  const customer = await createCustomer(staff, company, { name: 'Bo Boss', email });
  await addCustomerUser(staff, customer.id, email, 'Bo Boss', Role.CUSTOMER_ADMIN);
  return email;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`the portal's users, export and proof at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('an admin invites a user, who joins; disabled, their open page loses access within seconds', layoutUnlessDesktop(viewport), async ({ page, request, browser }) => {
      flowAt(page, 1280);
      test.setTimeout(120_000);
      const run = `${viewport.width}-${Date.now()}`;
      const staff = await staffClients(request);
      const admin = await customerWithAdmin(staff, `Acme People ${run}`, run, 'boss');
      const clerk = `clerk.${run}@boss.example`;

      // The admin finds Users in the portal's navigation; they are on the list, without buttons.
      await signInToPortal(page, admin);
      await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Users' }).click();
      await expect(page).toHaveURL(/\/portal\/users$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
      const list = page.getByRole('region', { name: "Your company's users" });
      const adminRow = list.locator(`tr[data-email="${admin}"]`);
      await expect(adminRow).toContainText('Customer admin');
      await expect(adminRow).toContainText('Active');
      await expect(adminRow).toContainText('You');
      await expect(adminRow.getByRole('button')).toHaveCount(0);

      // The server's word on a bad address shows under the field; then the invitation goes out.
      const email = page.getByLabel('E-mail', { exact: true });
      await email.fill('not an address');
      await page.getByLabel('Name', { exact: true }).fill('Cleo Clerk');
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await expect(email).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#invite-email-error')).not.toBeEmpty();
      await shoot(page, 'users-invite-error');
      await email.fill(clerk);
      await expect(page.getByLabel('Role', { exact: true })).toHaveValue(String(Role.CUSTOMER_USER));
      await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Customer user' });
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await expect(toastWithText(page, `Invitation sent to ${clerk}.`)).toBeVisible();
      await expect(email).toHaveValue('');
      await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');

      // The invitee opens the e-mailed link in their own browser, sets a password, signs in.
      const link = await invitationLink(staff, clerk);
      const clerkContext = await browser.newContext({ viewport, baseURL: siteUrl(), serviceWorkers: 'block' });
      const clerkPage = await clerkContext.newPage();
      await clerkPage.goto(link);
      await expect(clerkPage.getByTestId('invitation-heading')).toHaveText(`Acme People ${run} invited you`);
      await expect(clerkPage.getByLabel('Name', { exact: true })).toHaveValue('Cleo Clerk');
      await clerkPage.getByLabel('Password', { exact: true }).fill(CUSTOMER_PASSWORD);
      await clerkPage.getByLabel('Confirm password').fill(CUSTOMER_PASSWORD);
      await clerkPage.getByRole('button', { name: 'Create account' }).click();
      await expect(clerkPage).toHaveURL(/\/portal\/login$/);
      await expect(clerkPage.getByLabel('Email', { exact: true })).toHaveValue(clerk);
      await clerkPage.getByLabel('Password', { exact: true }).fill(CUSTOMER_PASSWORD);
      await clerkPage.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(clerkPage).toHaveURL(/\/portal$/);
      await expect(clerkPage.getByTestId('portal-user-name')).toHaveText('Cleo Clerk');

      // A customer user: no Users link, the page says who may manage users, the call is refused.
      await expect(clerkPage.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Users' })).toHaveCount(0);
      await clerkPage.goto('/portal/users');
      await expect(clerkPage.getByTestId('portal-users-denied')).toHaveText("Only your company's administrators can manage users.");
      await expect(clerkPage.getByRole('region', { name: "Your company's users" })).toHaveCount(0);
      await expect(clerkPage.getByText(admin)).toHaveCount(0);
      await shoot(clerkPage, 'users-denied');
      const refused = await rpc(clerkContext.request, siteUrl())
        .users.listCustomerUsers({})
        .then(() => null, (error: unknown) => ConnectError.from(error).code);
      expect(refused).toBe(Code.PermissionDenied);
      await clerkPage.goto('/portal');
      await expect(clerkPage.getByRole('heading', { level: 1, name: 'Your shipments' })).toBeVisible();

      // The admin's list shows the new user; Disable asks first.
      await page.reload();
      const clerkRow = list.locator(`tr[data-email="${clerk}"]`);
      await expect(clerkRow).toContainText('Cleo Clerk');
      await expect(clerkRow).toContainText('Customer user');
      await expect(clerkRow).toContainText('Active');
      await shoot(page, 'users');
      await expectAccessible(page, '.portal-area');
      await clerkRow.getByRole('button', { name: 'Disable Cleo Clerk' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Disable this user?' });
      await expect(confirm).toContainText('Cleo Clerk is signed out within seconds and cannot sign in until you enable them again.');
      await shoot(page, 'users-disable-confirm', false);
      await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
      await expect(toastWithText(page, `${clerk} can no longer sign in.`)).toBeVisible();
      await expect(confirm).toHaveCount(0);
      await expect(clerkRow).toContainText('Disabled');
      await expect(clerkRow.getByRole('button', { name: 'Enable Cleo Clerk' })).toBeVisible();

      // Within 5 s the clerk's next navigation lands on the sign-in page.
      await expect
        .poll(
          async () => {
            await clerkPage.goto('/portal/pickups');
            await clerkPage.getByRole('heading', { level: 1 }).first().waitFor();
            return new URL(clerkPage.url()).pathname;
          },
          { timeout: 6_000, intervals: [250], message: "the disabled user's next page" },
        )
        .toBe('/portal/login');

      // Enabled again: the list says so.
      await clerkRow.getByRole('button', { name: 'Enable Cleo Clerk' }).click();
      await expect(toastWithText(page, `${clerk} can sign in again.`)).toBeVisible();
      await expect(clerkRow).toContainText('Active');
      await clerkContext.close();

      // In Arabic, right to left: the page's words, the addresses kept whole.
      await page.evaluate(() => localStorage.setItem('language-choice', 'ar'));
      await page.goto('/portal/users');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('heading', { level: 1, name: 'المستخدمون' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'مستخدمو شركتك' }).locator(`tr[data-email="${clerk}"]`)).toContainText('مستخدم العميل');
      await expect(page.getByRole('button', { name: 'إرسال الدعوة' })).toBeVisible();
      await shoot(page, 'users-ar');
      await page.evaluate(() => localStorage.removeItem('language-choice'));
    });

    test("Export CSV holds only this customer's shipments; a delivered one shows its signature", layoutUnlessDesktop(viewport), async ({ page, request, playwright }) => {
      flowAt(page, 1280);
      test.setTimeout(90_000);
      const run = `${viewport.width}-${Date.now()}`;
      const staff = await staffClients(request);
      const [mine, theirs] = await Promise.all([
        customerWithAdmin(staff, `Export Mine ${run}`, run, 'mine'),
        customerWithAdmin(staff, `Export Theirs ${run}`, run, 'theirs'),
      ]);

      const mineContext = await playwright.request.newContext();
      const theirsContext = await playwright.request.newContext();
      const minePortal = await customerPortal(mineContext, mine);
      const theirsPortal = await customerPortal(theirsContext, theirs);
      const first = await book(minePortal, run, 'Rita Receiver');
      const second = await book(minePortal, run, 'Rob Receiver');
      const other = await book(theirsPortal, run, 'Tom Theirs');
      await mineContext.dispose();
      await theirsContext.dispose();

      // Staff deliver the first and record its proof.
      await staff.shipments.updateShipmentTracking({ id: first.id, status: ShipmentStatus.DELIVERED, currentLocation: 'Denver', remarks: 'Handed over' });
      await staff.shipments.recordProofOfDelivery({ id: first.id, recipientName: 'Rita Receiver', signaturePng: PNG_40, photo: PNG_40 });

      await signInToPortal(page, mine);
      await expect(page.getByTestId('portal-shipments').getByRole('link')).toHaveCount(2);
      await shoot(page, 'list-export');
      const all = await exportCsv(page);
      expect(all.name).toMatch(/^shipments-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(all.numbers.sort()).toEqual([first.trackingNumber, second.trackingNumber].sort());
      expect(all.numbers).not.toContain(other.trackingNumber);

      // The link carries the list's filter: a search exports what it finds.
      await page.getByLabel('Search').fill(second.trackingNumber);
      await expect(page).toHaveURL((url) => url.searchParams.get('q') === second.trackingNumber);
      await expect(page.getByTestId('portal-shipments').getByRole('link')).toHaveCount(1);
      await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', `/exports/portal/shipments.csv?q=${second.trackingNumber}`);
      expect((await exportCsv(page)).numbers).toEqual([second.trackingNumber]);

      // The delivered shipment's proof: who received it and the signature itself.
      await page.goto(`/portal/shipments/${first.id}`);
      const proof = page.getByTestId('portal-proof');
      await expect(proof).toContainText('Received by Rita Receiver');
      const figure = proof.getByRole('figure', { name: 'Signature' });
      await figure.scrollIntoViewIfNeeded();
      const signature = figure.getByRole('img', { name: 'Signature of Rita Receiver' });
      await expect(signature).toBeVisible();
      await expect
        .poll(() => signature.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), { message: 'the signature is loaded' })
        .toBe(40);
      await expect(proof.getByRole('figure', { name: 'Photo' }).getByRole('img', { name: 'Photo of the delivery' })).toBeVisible();
      await shoot(page, 'shipment-proof');
      await expectAccessible(page, '[data-testid="portal-proof"]');
      // On a phone the proof fits the screen too (the flow runs once, at this width).
      await page.setViewportSize({ width: 390, height: 844 });
      await figure.scrollIntoViewIfNeeded();
      await expect(signature).toBeInViewport();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await shoot(page, 'shipment-proof');

      // Signed out, the export answers 401.
      const signedOut = await playwright.request.newContext();
      expect((await signedOut.get(`${siteUrl()}/exports/portal/shipments.csv`)).status()).toBe(401);
      await signedOut.dispose();
    });
  });
}
