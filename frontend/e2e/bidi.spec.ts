// Values with their own direction (phones, e-mails, numbers, dimensions, typed names and places)
// read in their own order on Arabic pages and among mixed scripts; the history the product
// writes itself is in the reader's language; nothing strands or breaks where people would not.
// Read from the rendered page: the x-order of each character on each line.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import { ShipmentStatus, type Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { visualLines } from './support/visual-lines';
import { adminEmail, signIn } from './support/admin';
import { flowAt, siteUrl } from './support/env';
import { adminRpc, type Clients } from './support/rpc';
import { createShipment, moveShipment } from './support/tracking';

const PHONE = '+233 30 555 0161';
// Longer than a phone's line, so it has to wrap somewhere.
const EMAIL = 'kwame.mensah.operations-desk@accra-logistics-example.com';
const ORIGIN = 'القاهرة، مصر';
const DESTINATION = 'دبي';

/** An e-mail address shown on one line or wrapped only after "@" or before a dot. */
async function expectSensiblyWrapped(link: Locator): Promise<void> {
  const lines = await visualLines(link);
  expect(lines.join(''), 'the address reads left to right').toBe(EMAIL);
  for (let i = 1; i < lines.length; i += 1) {
    expect(lines[i].startsWith('.') || lines[i - 1].endsWith('@'), `"${lines.join(' | ')}" breaks mid-word`).toBe(true);
  }
}

let admin: Clients;
let shipment: Shipment;
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: siteUrl() });
  admin = await adminRpc(request, siteUrl());
  const run = Date.now().toString(36).slice(-6);
  shipment = await createShipment(admin, run, {
    shipper: { name: 'Kwame Mensah', address: `12 Ring Road ${run}, Accra, Ghana`, phone: PHONE, email: EMAIL },
    origin: ORIGIN,
    destination: DESTINATION,
    packages: [{ quantity: 1, pieceType: 'Box', description: `Kente cloth ${run}`, lengthCm: 80, widthCm: 60, heightCm: 50, weightKg: 12 }],
  });
});

async function openTracking(page: Page, prefix: string): Promise<void> {
  await adminRpc(page.context().request, siteUrl());
  await page.goto(`${prefix}/track/${shipment.trackingNumber}`);
  await expect(page.locator('#party-shipper')).toBeVisible();
}

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the Arabic tracking result reads phones, e-mails, numbers and dimensions in their own order', async ({ page }) => {
      await openTracking(page, '/ar');
      const shipper = page.locator('section.party-card').filter({ has: page.locator('#party-shipper') });
      expect(await visualLines(shipper.locator('a[href^="tel:"]'))).toEqual([PHONE]);
      await expectSensiblyWrapped(shipper.locator('a[href^="mailto:"]'));
      expect(await visualLines(page.locator('#result-heading'))).toEqual([shipment.trackingNumber]);
      const dimensions = page.locator('.packages-table tbody td').nth(3);
      expect(await visualLines(dimensions)).toEqual(['80 × 60 × 50 cm']);
      // The shipment mode's icon keeps to its first word.
      const mode = page.locator('.details-list .detail-row').filter({ has: page.locator('svg[data-icon]') }).locator('dd');
      const icon = await mode.locator('svg').boundingBox();
      const word = await mode.locator('.icon-text-lead').boundingBox();
      expect(icon!.y + icon!.height / 2).toBeGreaterThan(word!.y);
      expect(icon!.y + icon!.height / 2).toBeLessThan(word!.y + word!.height);
      await keepScreenshot(page, join(SCREENSHOTS, `track-ar-${width}.png`), { fullPage: true });
    });

    test('"Shipment created" is written in the reader\'s language; typed remarks stay as typed', async ({ page }) => {
      // Words, not their order on the line: the same at every width.
      flowAt({ width }, 1280);
      for (const [prefix, text] of [
        ['/ar', 'تم إنشاء الشحنة'],
        ['/es', 'Envío creado'],
        ['/fr', 'Envoi créé'],
        ['', 'Shipment created'],
      ]) {
        await openTracking(page, prefix);
        await expect(page.getByTestId('history-event').last().locator('.history-remarks')).toHaveText(text);
      }
    });

    test('the admin list and View dialog keep typed places and numbers in their order', async ({ page }) => {
      await signIn(page);
      const answered = page.waitForResponse((r) => r.url().includes('/logistics.v1.ShipmentService/ListShipments'));
      await page.getByLabel('Search', { exact: true }).fill(shipment.trackingNumber);
      await answered;
      const row = page.getByRole('region', { name: 'Shipments' }).locator(`tr[data-tracking-number="${shipment.trackingNumber}"]`);
      // The origin (its "ص"), the arrow, then the destination (its "ب"), left to right.
      const route = (await visualLines(row.locator('.route-cell'))).join(' ');
      const [origin, arrow, destination] = [route.indexOf('ص'), route.indexOf('→'), route.indexOf('ب')];
      expect(arrow, route).toBeGreaterThan(-1);
      expect(origin < arrow && arrow < destination, `origin → destination, read "${route}"`).toBe(true);
      await row.getByRole('button', { name: `View shipment ${shipment.trackingNumber}` }).click();
      const dialog = page.getByRole('dialog');
      expect(await visualLines(dialog.locator('a[href^="tel:"]').first())).toEqual([PHONE]);
      await expectSensiblyWrapped(dialog.locator('a[href^="mailto:"]').first());
      // One clock on one screen: the times of its history and of its record alike.
      const text = await dialog.innerText();
      expect(text).toMatch(/\d:\d\d\s?[AP]M/);
      expect(text, 'a 24-hour time beside 12-hour ones').not.toMatch(/\b\d{1,2}:\d{2}\b(?!\s?[AP]M)/);
      await keepScreenshot(page, join(SCREENSHOTS, `admin-view-${width}.png`));
    });

    test("the audit log's changed fields open from a button, named and shown as the shipment form does", async ({ page }) => {
      await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Kumasi, Ghana');
      await signIn(page);
      await page.goto(`/administration_and_development/audit?target=${shipment.trackingNumber}&action=shipment.status_change`);
      const entry = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').first();
      const toggle = entry.getByRole('button', { name: /fields? changed/ });
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const table = entry.getByRole('table');
      await expect(table.getByRole('row', { name: /^Status/ })).toContainText('Pending');
      await expect(table.getByRole('row', { name: /^Status/ })).toContainText('In Transit');
      await expect(table.getByRole('row', { name: /^Current Location/ })).toContainText('Kumasi, Ghana');
      await expect(table).not.toContainText('in_transit');
      await expect(table).not.toContainText('currentLocation');
      expect(await table.innerText(), 'raw ISO times').not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      await keepScreenshot(page, join(SCREENSHOTS, `audit-${width}.png`));
    });

    test('the admin bar shows the whole address, Create User starts on a working role, the webhook hint is true', async ({ page }) => {
      await signIn(page);
      const address = page.getByTestId('admin-user-email').locator('.admin-user-address');
      await expect(address).toHaveText(adminEmail());
      expect(await address.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'the address is cut').toBe(true);
      await page.goto('/administration_and_development/users');
      // Other specs' users have a Role select each: the one of the Create User form.
      const role = page.getByRole('form', { name: 'Create User' }).getByLabel('Role', { exact: true });
      await expect(role.locator('option:checked')).toHaveText('Agent');
      // Each option fits the select instead of being cut.
      const widths = await role.evaluate((select: HTMLSelectElement) => {
        const probe = document.createElement('span');
        probe.style.font = getComputedStyle(select).font;
        document.body.append(probe);
        const longest = Math.max(...[...select.options].map((o) => ((probe.textContent = o.text), probe.offsetWidth)));
        probe.remove();
        return { longest, room: select.clientWidth - 48 };
      });
      expect(widths.longest).toBeLessThanOrEqual(widths.room);
      await role.scrollIntoViewIfNeeded();
      await keepScreenshot(page, join(SCREENSHOTS, `users-${width}.png`));
      await page.goto('/administration_and_development/webhooks');
      await expect(page.getByText('on a public address')).toHaveCount(0);
    });

    test('Arabic figures have no Latin letters', async ({ page }) => {
      await page.goto('/ar');
      const packages = page.locator('.stats .stat').nth(2).locator('dd');
      await expect(packages).toContainText('مليون');
      await expect(packages).not.toContainText('M');
      await packages.scrollIntoViewIfNeeded();
      await keepScreenshot(page, join(SCREENSHOTS, `home-ar-${width}.png`));
    });
  });
}
