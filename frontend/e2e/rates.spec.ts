// Rates, end to end at 390 and 1280 px: the admin opens Rates and the public card (the sample one
// the product starts with) and previews a parcel on it without saving; on a customer's card of
// its own (made here, so no other spec sees a change) changes a weight break's price, previews it,
// saves it (the version goes up), exports the CSV, imports it back and saves, and an invalid file
// saves nothing; a save in between shows the conflict; a customer with a 10 % discount sees a
// Discount charge in the preview; an agent has no Rates at all.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { RateCardService, type RateCard } from '../src/gen/logistics/v1/rate_card_service_pb';
import { DateSchema } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { signIn } from './support/admin';
import { parseCsv } from './support/csv';
import { createCustomer, staffClients } from './support/customers';
import { LAYOUT, flowAt, siteUrl } from './support/env';
import { fetchThrough, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { expectAccessible, expectNoSidewaysScroll } from './support/page-checks';

const RATES_PATH = '/administration_and_development/rates';
const STAFF_PASSWORD = 'a-Staff-Passw0rd-2026';
const CONFLICT = 'This rate card was changed by someone else. Reload it to see their change.';
/** 5 kg, 40×30×20 cm (4.8 kg volumetric at 5000): priced by the sample card's 5 kg break. */
const PARCEL = { from: ['NG', 'Lagos'], to: ['NL', 'Rotterdam'], weight: '5', sides: ['40', '30', '20'] } as const;
const QUOTE = {
  origin: { country: 'NG', city: 'Lagos' },
  destination: { country: 'NL', city: 'Rotterdam' },
  parcels: [{ weightKg: 5, lengthCm: 40, widthCm: 30, heightCm: 20, count: 1 }],
};

// Each test makes its own customer (or user): they run side by side.
test.describe.configure({ mode: 'parallel' });

type Staff = { clients: Clients; rates: Client<typeof RateCardService> };

/** The admin's API clients, RateCardService among them, in the test's request context. */
async function staffWithRates(request: APIRequestContext): Promise<Staff> {
  const clients = await staffClients(request);
  const transport = createGrpcWebTransport({ baseUrl: siteUrl(), fetch: fetchThrough(request, siteUrl()) });
  return { clients, rates: createClient(RateCardService, transport) };
}

/** A new customer with a card of its own: the public card's zones, services and lanes. */
async function customerWithOwnCard(staff: Staff, run: string) {
  const customer = await createCustomer(staff.clients, `Rates Own Co ${run}`, { name: 'Olu Own', email: `own.${run}@rates.example` });
  const base = await staff.rates.getRateCard({ id: 'public' });
  const card = await staff.rates.updateRateCard({ rateCard: { ...base, id: customer.id, version: 0, discountBasisPoints: 0 } });
  expect(card.version).toBe(1);
  return { customer, card };
}

/** The index of the EXPRESS_AIR lane from West Africa to Europe, and of its break for 5 kg. */
function expressLane(card: RateCard): { lane: number; band: number } {
  const zoneOf = (country: string) => card.zones.find((z) => z.places.includes(country))!.code;
  const lane = card.lanes.findIndex(
    (l) => l.serviceCode === 'EXPRESS_AIR' && l.originZone === zoneOf('NG') && l.destinationZone === zoneOf('NL'),
  );
  expect(lane).toBeGreaterThanOrEqual(0);
  const band = card.lanes[lane].weightBreaks.findIndex((b) => b.upToKg >= 5);
  expect(band).toBeGreaterThanOrEqual(0);
  return { lane, band };
}

const usd = (minor: bigint) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(Number(minor) / 100);

async function preview(page: Page) {
  const panel = page.getByRole('complementary', { name: 'Preview' });
  await panel.getByLabel('From country').fill(PARCEL.from[0]);
  await panel.getByLabel('From city').fill(PARCEL.from[1]);
  await panel.getByLabel('To country').fill(PARCEL.to[0]);
  await panel.getByLabel('To city').fill(PARCEL.to[1]);
  await panel.getByLabel('Weight (kg)').fill(PARCEL.weight);
  await panel.getByLabel('Length (cm)').fill(PARCEL.sides[0]);
  await panel.getByLabel('Width (cm)').fill(PARCEL.sides[1]);
  await panel.getByLabel('Height (cm)').fill(PARCEL.sides[2]);
  await panel.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(panel.getByRole('list', { name: 'Prices' })).toBeVisible();
  return panel;
}

function lane(page: Page, index: number): Locator {
  return page.locator(`li[data-lane="${index}"]`);
}

async function openLane(page: Page, index: number): Promise<Locator> {
  const item = lane(page, index);
  await item.locator('.rate-lane-toggle').click();
  await expect(item.locator('.rate-lane-toggle')).toHaveAttribute('aria-expanded', 'true');
  return item;
}

function versionLine(page: Page): Locator {
  return page.getByTestId('rate-card-meta');
}

/** The page (the whole page, or what is in view) as `rates-<name>-<width>-<theme>.png`. */
async function shoot(page: Page, name: string, { themes = ['light'], fullPage = true }: { themes?: Array<'light' | 'dark'>; fullPage?: boolean } = {}) {
  const width = page.viewportSize()!.width;
  for (const theme of themes) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(page, join(SCREENSHOTS, `rates-${name}-${width}-${theme}.png`), { fullPage });
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

/** Every input, select and text area of the screen is named by a real <label>. */
async function expectRealLabels(page: Page) {
  const unlabelled = await page
    .locator('.admin-main')
    .locator('input, select, textarea')
    .evaluateAll((inputs) =>
      (inputs as HTMLInputElement[]).filter((i) => !i.labels || i.labels.length === 0).map((i) => i.outerHTML.slice(0, 120)),
    );
  expect(unlabelled).toEqual([]);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`Rates at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the public card: the list, a lane opened, a preview, the layout', { tag: LAYOUT }, async ({ page }) => {
      await signIn(page);
      const nav = page.getByRole('navigation', { name: 'Admin' });
      await nav.getByRole('link', { name: 'Rates' }).click();
      await expect(page).toHaveURL(new RegExp(`${RATES_PATH}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Rates' })).toBeVisible();
      const row = page.getByRole('region', { name: 'Rate cards' }).locator('tr[data-card-id="public"]');
      await expect(row).toContainText('Public rate card');
      await expect(row).toContainText('Public prices');
      if (viewport.width < 1000) await expectNoSidewaysScroll(page);
      await shoot(page, 'list');
      // An admin's bar, every section in it, keeps Rates on the line of Log out at 1280 px.
      if (viewport.width >= 1000) {
        const middle = (box: { y: number; height: number } | null) => box!.y + box!.height / 2;
        const rates = await nav.getByRole('link', { name: 'Rates' }).boundingBox();
        const logOut = await page.getByRole('button', { name: 'Log out' }).boundingBox();
        expect(Math.abs(middle(rates) - middle(logOut))).toBeLessThan(4);
        for (const name of ['Shipments', 'Webhooks', 'API keys']) {
          expect(Math.abs(middle(await nav.getByRole('link', { name }).boundingBox()) - middle(logOut))).toBeLessThan(4);
        }
      }

      await row.getByRole('link', { name: 'Public rate card' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Public rate card' })).toBeVisible();
      await expect(page.getByLabel('Currency')).toHaveValue('USD');
      // Lanes are one line each until opened.
      await expect(lane(page, 0).locator('.rate-lane-toggle')).toHaveAttribute('aria-expanded', 'false');
      await expect(lane(page, 0)).toContainText(/^.*\S+ · \S+ → \S+ · \d+ breaks? · .*days?/);
      await expect(page.locator('.rate-lane-body')).toHaveCount(0);
      const opened = await openLane(page, 0);
      await expect(opened.getByLabel('Service')).toBeVisible();
      await expect(opened.locator('li[data-break]')).not.toHaveCount(0);

      const panel = await preview(page);
      const express = panel.locator('li[data-service="EXPRESS_AIR"]');
      await expect(express.getByTestId('rate-preview-price')).toHaveText(/^\$\d[\d,]*\.\d\d$/);
      await expect(express).toContainText('Chargeable weight 5 kg (actual weight)');
      await expect(express).toContainText(/Transit \d+(–\d+)? days?/);
      await expect(express.locator('[data-charge="Freight"]')).toBeVisible();

      await expectRealLabels(page);
      if (viewport.width < 1000) await expectNoSidewaysScroll(page);
      else {
        // The preview sits beside the form at 1280 px.
        const form = (await page.locator('form.rate-card-form').boundingBox())!;
        expect((await panel.boundingBox())!.x).toBeGreaterThan(form.x + form.width - 1);
      }
      // The open lane and the preview in view (the whole card is a long page).
      await opened.scrollIntoViewIfNeeded();
      await shoot(page, 'public-card-lane', { themes: ['light', 'dark'], fullPage: false });
      await panel.scrollIntoViewIfNeeded();
      await shoot(page, 'public-card-preview', { themes: ['light', 'dark'], fullPage: false });
      // Axe reads the whole card (every lane's inputs) in both themes, the longest part of the
      // test: once, at the desktop width; what it checks (names, roles, colours) is the same markup
      // and styles on a phone.
      if (viewport.width >= 1000) await expectAccessible(page, '.admin-main');
    });

    test('a card of its own: price changed, previewed, saved; CSV out and in; a bad file saves nothing; a conflicting save', async ({
      page,
      request,
    }, testInfo) => {
      flowAt(page, 1280);
      const staff = await staffWithRates(request);
      const run = `${viewport.width}-${Date.now()}`;
      const { customer, card } = await customerWithOwnCard(staff, run);
      const at = expressLane(card);

      // What the card prices once the break costs 99.00, by the server's own reckoning.
      const changed = structuredClone(card);
      changed.lanes[at.lane].weightBreaks[at.band].priceMinor = 9900n;
      const expected = (await staff.rates.previewQuote({ rateCard: changed, quote: QUOTE })).options.find((o) => o.serviceCode === 'EXPRESS_AIR')!;

      await signIn(page);
      await page.goto(RATES_PATH);
      const row = page.locator(`tr[data-card-id="${customer.id}"]`);
      await expect(row).toContainText('Own card');
      await expect(row.getByTestId('rate-card-version')).toHaveText('1');
      await row.getByRole('link', { name: customer.name }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Rate card: ${customer.name}` })).toBeVisible();
      await expect(versionLine(page)).toContainText('Version 1');
      await expect(page.getByLabel('Own prices')).toBeChecked();

      const item = await openLane(page, at.lane);
      const price = item.locator(`li[data-break="${at.band}"]`).getByLabel('Price');
      const save = page.getByRole('button', { name: 'Save', exact: true });
      // An amount that is none stops at its input; a value the server refuses is shown at its input.
      await price.fill('abc');
      await save.click();
      await expect(price).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator(`#lane-${at.lane}-break-${at.band}-price-error`)).toHaveText('Enter an amount such as 12.50.');
      await price.fill('99.00');
      const daysMax = item.getByLabel('Transit days, max');
      const days = await daysMax.inputValue();
      await daysMax.fill('0');
      await save.click();
      await expect(daysMax).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator(`#lane-${at.lane}-transitDaysMax-error`)).not.toBeEmpty();
      expect((await staff.rates.getRateCard({ id: customer.id })).version).toBe(1);
      await daysMax.fill(days);
      const panel = await preview(page);
      await expect(panel.locator('li[data-service="EXPRESS_AIR"]').getByTestId('rate-preview-price')).toHaveText(usd(expected.priceMinor));

      await save.click();
      await expect(toastWithText(page, 'Rate card saved (version 2)')).toBeVisible();
      await expect(versionLine(page)).toContainText('Version 2');
      const saved = await staff.rates.getRateCard({ id: customer.id });
      expect(saved.lanes[at.lane].weightBreaks[at.band].priceMinor).toBe(9900n);

      // Export: a real CSV file, with the new price in it.
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const file = testInfo.outputPath(download.suggestedFilename());
      await download.saveAs(file);
      const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
      const [header, ...records] = parseCsv(text);
      for (const column of ['record', 'service', 'origin_zone', 'destination_zone', 'up_to_kg', 'price', 'per_kg']) expect(header).toContain(column);
      const col = (name: string) => header.indexOf(name);
      const breaks = records.filter((r) => r[col('record')] === 'break');
      expect(breaks.map((r) => r[col('price')])).toContain('99.00');

      // Import it back: loaded, not saved, until Save.
      await page.getByLabel('Import CSV').setInputFiles(file);
      await expect(page.getByRole('status').filter({ hasText: `Loaded from ${download.suggestedFilename()}` })).toBeVisible();
      expect((await staff.rates.getRateCard({ id: customer.id })).version).toBe(2);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(toastWithText(page, 'Rate card saved (version 3)')).toBeVisible();
      await expect(versionLine(page)).toContainText('Version 3');

      // A price of `abc`: the row and column named, nothing loaded or saved.
      const bad = [header, ...records.map((r, i) => (i === records.indexOf(breaks[0]) ? r.map((c, j) => (j === col('price') ? 'abc' : c)) : r))];
      const badRow = records.indexOf(breaks[0]) + 2;
      const csv = bad.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n');
      await page.getByLabel('Import CSV').setInputFiles({ name: 'bad-rates.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      const errors = page.locator('.rate-card-import-errors');
      await expect(errors).toContainText('The file was not loaded; nothing changed');
      await expect(errors.getByRole('listitem').first()).toContainText(`Row ${badRow}, price`);
      expect((await staff.rates.getRateCard({ id: customer.id })).version).toBe(3);
      await expect(versionLine(page)).toContainText('Version 3');

      // Someone else saves in between: this save is refused, and Reload shows theirs.
      const theirs = await staff.rates.getRateCard({ id: customer.id });
      theirs.validUntil = create(DateSchema, { year: 2099, month: 12, day: 31 });
      await staff.rates.updateRateCard({ rateCard: theirs });
      await page.getByLabel('Oversize length (cm)').fill('130');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(page.locator('.rate-card-conflict')).toContainText(CONFLICT);
      expect((await staff.rates.getRateCard({ id: customer.id })).version).toBe(4);
      await page.locator('.rate-card-conflict').getByRole('button', { name: 'Reload' }).click();
      await expect(versionLine(page)).toContainText('Version 4');
      await expect(page.getByLabel('Valid until')).toHaveValue('2099-12-31');
    });

    test('a customer card with a 10% discount: added from the list, previewed with a Discount, saved, deleted', async ({ page, request }) => {
      flowAt(page, 390);
      const staff = await staffWithRates(request);
      const run = `${viewport.width}-${Date.now()}`;
      const customer = await createCustomer(staff.clients, `Rates Discount Co ${run}`, { name: 'Dee Discount', email: `discount.${run}@rates.example` });

      await signIn(page);
      await page.goto(RATES_PATH);
      await page.getByRole('button', { name: 'Add a customer card' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a customer card' });
      await dialog.getByLabel('Customer', { exact: true }).fill(customer.name);
      await dialog.getByRole('button', { name: new RegExp(customer.name) }).click();
      await expect(page).toHaveURL(new RegExp(`${RATES_PATH}/${customer.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: `Rate card: ${customer.name}` })).toBeVisible();
      await expect(versionLine(page)).toContainText('Not saved yet');
      await expect(page.getByLabel('Discount off the public card')).toBeChecked();
      // Own prices start from a copy of the public card's; a discount leaves them out again.
      await page.getByLabel('Own prices').check();
      await page.getByRole('button', { name: 'Start from the public card' }).click();
      await expect(page.locator('li[data-lane]').first()).toBeVisible();
      await expect(page.getByLabel('Code').first()).toHaveValue(/\S/);
      await page.getByLabel('Discount off the public card').check();
      await expect(page.locator('li[data-lane]')).toHaveCount(0);
      await page.getByLabel('Discount (%)').fill('10');

      const panel = await preview(page);
      const option = panel.locator('li.rate-preview-option').first();
      await expect(option.locator('[data-charge="Discount"] dd')).toHaveText(/^-\$\d/);
      await expectRealLabels(page);
      await expectNoSidewaysScroll(page);
      await shoot(page, 'discount-card');

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(toastWithText(page, 'Rate card saved (version 1)')).toBeVisible();
      expect((await staff.rates.getRateCard({ id: customer.id })).discountBasisPoints).toBe(1000);
      await page.getByRole('link', { name: 'All rate cards' }).click();
      const row = page.locator(`tr[data-card-id="${customer.id}"]`);
      await expect(row).toContainText('10% off the public card');

      await row.getByRole('link', { name: customer.name }).click();
      await page.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete this rate card?' });
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${RATES_PATH}$`));
      await expect(page.locator(`tr[data-card-id="${customer.id}"]`)).toHaveCount(0);
    });

    test('an agent has no Rates', async ({ page, request }) => {
      flowAt(page, 1280);
      const staff = await staffWithRates(request);
      const email = `agent-rates-${viewport.width}-${Date.now()}@example.com`;
      await staff.clients.users.createUser({ user: { email, name: 'Ama Agent', role: Role.AGENT }, password: STAFF_PASSWORD });
      await signIn(page, email, STAFF_PASSWORD);
      await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Shipments' })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Rates' })).toHaveCount(0);
      for (const path of [RATES_PATH, `${RATES_PATH}/public`]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: 'Not available to your account' })).toBeVisible();
      }
    });
  });
}
