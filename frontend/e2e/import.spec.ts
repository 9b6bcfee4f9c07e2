// CSV import of shipments (Import page): the template, the check with its preview and errors,
// the import with its progress kept in the address, the rejected rows' report, a second run
// that skips everything, formula cells kept as text, file-level errors, who may import, and
// the page on a phone (390 px) and a desktop (1280 px).
import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { ADMIN_PATH, SHIPMENT_SERVICE_PATH, signIn } from './support/admin';
import { adminRpc } from './support/rpc';
import { LAYOUT, ONE_MODE } from './support/env';
import { parseCsv } from './support/csv';

const IMPORT_PATH = '/administration_and_development/import';
const PASSWORD = 'an-Import-Passw0rd-2026';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const HEADER =
  'tracking_number,status,shipper_name,shipper_address,shipper_phone,shipper_email,receiver_name,receiver_address,receiver_phone,receiver_email,origin,destination,current_location,carrier,type_of_shipment,shipment_mode,package_count,product,product_quantity,payment_mode,total_freight,weight_kg,expected_delivery_date,departure_time,pickup_date,pickup_time,comments,packages,created_at,external_reference,language_code,customer_id';
const COLUMNS = HEADER.split(',');
const FORMULA = '=HYPERLINK("http://x","y")';

/** A prefix no other run of the suite uses (the tests share one database). */
function tag(): string {
  return `imp${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** A staff user with `role`, made by the first admin; a fresh e-mail per call. */
async function staffMember(request: APIRequestContext, baseURL: string, role: Role, name: string): Promise<string> {
  const admin = await adminRpc(request, baseURL);
  const email = `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await admin.users.createUser({ user: { email, name, role }, password: PASSWORD });
  return email;
}

/** `YYYY-MM-DD`, `days` from today. */
function day(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

type Row = Record<string, string>;

/** A valid shipment's row: number `i` of run `run`. */
function validRow(run: string, i: number): Row {
  return {
    tracking_number: '',
    status: '',
    shipper_name: `Shipper ${run} ${i}`,
    shipper_address: `${i} Harbour Road, Lisbon`,
    shipper_phone: '+351 21 000 0000',
    shipper_email: `shipper${i}.${run}@example.com`,
    receiver_name: `Receiver ${run} ${i}`,
    receiver_address: `${i} Ring Road, Accra`,
    receiver_phone: '+233 30 000 0000',
    receiver_email: `receiver${i}.${run}@example.com`,
    origin: 'Lisbon',
    destination: 'Accra',
    current_location: '',
    carrier: 'Atlantic Freight',
    type_of_shipment: 'standard',
    shipment_mode: 'sea_shipping',
    package_count: '1',
    product: 'Books',
    product_quantity: '12',
    payment_mode: 'bank_transfer',
    total_freight: '120.50',
    weight_kg: '5',
    expected_delivery_date: day(60),
    departure_time: '09:30',
    pickup_date: day(30),
    pickup_time: '14:00',
    comments: `Imported ${run} ${i}`,
    packages: JSON.stringify([{ quantity: 1, pieceType: 'Box', description: 'Books', length: 40, width: 30, height: 20, weight: 5 }]),
    created_at: '',
    external_reference: `${run}-${String(i).padStart(3, '0')}`,
  };
}

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A CSV file of `rows`; lines end with CRLF, as spreadsheets write them, unless `eol` says otherwise. */
function csv(rows: Row[], columns = COLUMNS, eol = '\r\n'): Buffer {
  const lines = [columns.join(','), ...rows.map((row) => columns.map((c) => cell(row[c] ?? '')).join(','))];
  return Buffer.from(`${lines.join(eol)}${eol}`, 'utf8');
}

/**
 * The suite's file: 25 rows, of which the 3rd has a bad e-mail and the 7th a date that does not
 * exist (both in the preview of the first 10), and the 13th a formula as its comment.
 */
function importFile(run: string) {
  const rows = Array.from({ length: 25 }, (_, i) => validRow(run, i + 1));
  rows[2].shipper_email = 'not-an-email';
  rows[6].expected_delivery_date = '2027-02-30';
  rows[12].comments = FORMULA;
  return {
    name: `shipments-${run}.csv`,
    buffer: csv(rows),
    total: 25,
    valid: 23,
    rejected: 2,
    formulaShipper: rows[12].shipper_name,
  };
}

function fileInput(page: Page) {
  return page.getByLabel('CSV file');
}

/** The message under the file input (the server's sentence for a file it refused). */
function fileError(page: Page) {
  return page.locator('#import-file-error');
}

async function chooseFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  await fileInput(page).setInputFiles({ name, mimeType: 'text/csv', buffer });
}

/** Chooses the file and checks it; resolves when the check's counts show. */
async function checkFile(page: Page, name: string, buffer: Buffer, counts: string): Promise<void> {
  await chooseFile(page, name, buffer);
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByTestId('import-counts')).toHaveText(counts, { timeout: 20_000 });
}

test.describe('importing shipments from a CSV file', () => {
  test.use({ viewport: DESKTOP });

  test('a manager downloads the template, which the import takes as it is', { tag: ONE_MODE }, async ({ page, request, baseURL }) => {
    const email = await staffMember(request, baseURL!, Role.MANAGER, 'import-manager');
    await signIn(page, email, PASSWORD);
    // Import CSV beside Export CSV in the shipments list leads to the page, as does the tab.
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await expect(page).toHaveURL(new RegExp(`${IMPORT_PATH}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Import shipments' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Import' })).toHaveClass(/active/);

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download the template' }).click();
    const file = await (await download).path();
    const text = readFileSync(file, 'utf8');
    const records = parseCsv(text);
    expect(text.split(/\r?\n/)[0]).toBe(HEADER);
    expect(records).toHaveLength(2);
    expect(records[1]).toHaveLength(COLUMNS.length);

    await checkFile(page, 'shipments-import-template.csv', Buffer.from(text, 'utf8'), '1 row: 1 ready to import, 0 with errors');
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByRole('row')).toHaveCount(2);
    await expect(preview.getByRole('cell', { name: 'OK' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Rows with errors' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Choose another file' }).click();
    await expect(fileInput(page)).toBeVisible();
  });

  test('check, import, reload, rejected rows, and the same file again skips every row', async ({ page, request, baseURL }) => {
    test.setTimeout(120_000);
    const run = tag();
    const file = importFile(run);
    const email = await staffMember(request, baseURL!, Role.MANAGER, 'import-manager');
    await signIn(page, email, PASSWORD);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Import' }).click();
    await expect(page).toHaveURL(new RegExp(`${IMPORT_PATH}$`));

    // The check: counts, the preview's first rows and the rows with errors, naming the columns.
    await checkFile(page, file.name, file.buffer, `${file.total} rows: ${file.valid} ready to import, ${file.rejected} with errors`);
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.locator('tbody tr')).toHaveCount(10);
    // Rows found by their reference (their numbers are checked on their own below).
    const previewRow = (i: number) => preview.locator('tbody tr', { hasText: `${run}-${String(i).padStart(3, '0')}` });
    await expect(previewRow(3)).toContainText('shipper_email:');
    await expect(previewRow(7)).toContainText('expected_delivery_date:');
    await expect(previewRow(1)).toContainText('OK');
    await expect(previewRow(1)).toContainText(`Shipper ${run} 1`);
    await expect(previewRow(1).getByRole('cell', { name: 'Lisbon to Accra' })).toBeVisible();
    const rejected = page.getByRole('region', { name: 'Rows with errors' });
    await expect(rejected.locator('tbody tr')).toHaveCount(2);
    await expect(rejected.locator('tbody tr').nth(0)).toContainText(`${run}-003`);
    await expect(rejected.locator('tbody tr').nth(0)).toContainText('shipper_email:');
    await expect(rejected.locator('tbody tr').nth(1)).toContainText(`${run}-007`);
    await expect(rejected.locator('tbody tr').nth(1)).toContainText('expected_delivery_date:');
    const rejectedNumbers = await rejected.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row')));
    await expect(page.getByText('The full list, with the file’s own columns, can be downloaded after the import')).toBeVisible();
    // Nothing written by the check.
    const admin = await adminRpc(request, baseURL!);
    expect((await admin.shipments.listShipments({ query: file.formulaShipper })).shipments).toHaveLength(0);

    // Import: the id goes into the address, and a reload keeps showing the import.
    await page.getByRole('button', { name: `Import ${file.valid} shipments` }).click();
    await expect(page).toHaveURL(/[?&]import=[^&]+/);
    const importId = new URL(page.url()).searchParams.get('import')!;
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: file.name })).toBeVisible();
    const progress = page.getByRole('progressbar', { name: 'Import progress' });
    await expect(progress).toBeVisible();
    await expect(page.getByText(`Import finished: ${file.valid} created, 0 skipped (already imported), ${file.rejected} rejected.`)).toBeVisible({
      timeout: 60_000,
    });
    await expect(progress).toHaveAttribute('max', String(file.total));
    await expect(progress).toHaveAttribute('value', String(file.total));
    await expect(page.getByTestId('import-progress-text')).toHaveText(`${file.total} of ${file.total} rows`);

    // A finished import is asked no more: no poll in the 2.5 s after, while the page shows it
    // (checked below, once the report and the recent imports, on this page, used that time).
    let polls = 0;
    page.on('request', (r) => {
      if (r.url().includes(`${SHIPMENT_SERVICE_PATH}GetShipmentImport`)) polls++;
    });
    const finishedAt = Date.now();

    // The rejected rows: `row,errors`, then the two rows.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download rejected rows' }).click();
    const reportText = readFileSync(await (await download).path(), 'utf8');
    expect(reportText.startsWith('\uFEFF')).toBe(true); // UTF-8 with a BOM, for spreadsheets
    const report = parseCsv(reportText.slice(1)).filter((r) => r.some(Boolean));
    expect(report[0].slice(0, 2)).toEqual(['row', 'errors']);
    expect(report).toHaveLength(1 + file.rejected);
    // The report numbers the rows as the preview did.
    expect(report.slice(1).map((r) => r[0])).toEqual(rejectedNumbers);
    expect(report[1][1]).toContain('shipper_email');
    expect(report[2][1]).toContain('expected_delivery_date');

    // Recent imports lists it as finished, with its counts; Open shows it again.
    const recentRow = page.getByRole('region', { name: 'Recent imports' }).locator(`tr[data-import-id="${importId}"]`);
    await expect(recentRow).toContainText('Finished');
    await expect(recentRow).toContainText(file.name);
    await expect(recentRow).toContainText(`${file.valid} created / 0 skipped / ${file.rejected} rejected`);
    const rest = 2_500 - (Date.now() - finishedAt);
    if (rest > 0) await page.waitForTimeout(rest);
    expect(polls, 'polls of the finished import').toBe(0);
    await page.getByRole('button', { name: 'Import another file' }).click();
    await expect(page).not.toHaveURL(/import=/);
    await expect(fileInput(page)).toBeVisible();
    await recentRow.getByRole('link', { name: /^Open import/ }).click();
    await expect(page).toHaveURL(new RegExp(`import=${importId}`));
    await expect(page.getByText(`Import finished: ${file.valid} created`)).toBeVisible();

    // The formula is kept as text: the shipment's comment is the cell as written.
    const found = await admin.shipments.listShipments({ query: file.formulaShipper });
    expect(found.shipments).toHaveLength(1);
    expect(found.shipments[0].comments).toBe(FORMULA);
    expect(found.shipments[0].externalReference).toBe(`${run}-013`);
    await page.goto(ADMIN_PATH);
    await page.getByLabel('Search', { exact: true }).fill(file.formulaShipper);
    const listed = page.locator(`[data-tracking-number="${found.shipments[0].trackingNumber}"]`);
    await listed.getByRole('button', { name: /^View shipment/ }).click();
    const view = page.getByRole('dialog', { name: `Shipment ${found.shipments[0].trackingNumber}` });
    await expect(view.getByText(FORMULA, { exact: true })).toBeVisible();
    await view.getByRole('button', { name: 'Close' }).click();

    // The same file again: every valid row exists already, so none is created twice.
    await page.goto(IMPORT_PATH);
    await checkFile(page, file.name, file.buffer, `${file.total} rows: ${file.valid} ready to import, ${file.rejected} with errors`);
    await page.getByRole('button', { name: `Import ${file.valid} shipments` }).click();
    await expect(page.getByText(`Import finished: 0 created, ${file.valid} skipped (already imported), ${file.rejected} rejected.`)).toBeVisible({
      timeout: 60_000,
    });
    expect((await admin.shipments.listShipments({ query: file.formulaShipper })).shipments).toHaveLength(1);
  });

  test('an empty file and a file without some columns are refused with a clear message', { tag: ONE_MODE }, async ({ page, request, baseURL }) => {
    const run = tag();
    const email = await staffMember(request, baseURL!, Role.MANAGER, 'import-manager');
    await signIn(page, email, PASSWORD);
    await page.goto(IMPORT_PATH);

    // Empty: said at once, nothing sent.
    let created = 0;
    page.on('request', (r) => {
      if (r.url().includes(`${SHIPMENT_SERVICE_PATH}CreateShipmentImport`)) created++;
    });
    await chooseFile(page, 'empty.csv', Buffer.alloc(0));
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(fileError(page)).toHaveText('The file is empty.');
    await expect(fileInput(page)).toHaveAttribute('aria-invalid', 'true');
    expect(created).toBe(0);

    // No file chosen.
    await fileInput(page).setInputFiles([]);
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(fileError(page)).toHaveText('Choose a CSV file.');

    // Missing columns: the server's sentence.
    const columns = COLUMNS.filter((c) => c !== 'shipper_email' && c !== 'origin');
    await chooseFile(page, `missing-${run}.csv`, csv([validRow(run, 1)], columns));
    await expect(fileError(page)).toHaveCount(0);
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(fileError(page)).toHaveText('Missing columns: shipper_email, origin.', { timeout: 20_000 });
    expect(created).toBe(1);

    // Unknown columns too.
    await chooseFile(page, `colour-${run}.csv`, csv([{ ...validRow(run, 2), colour: 'red' }], [...COLUMNS, 'colour']));
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(fileError(page)).toHaveText('Unknown columns: colour. The template lists the columns.', { timeout: 20_000 });
  });

  for (const [eol, endings] of [
    ['\n', 'LF'],
    ['\r\n', 'CRLF'],
  ] as const) {
    test(`a row is numbered by its line in the file, the header being line 1 (${endings} line endings)`, { tag: ONE_MODE }, async ({ page, request, baseURL }) => {
      // ShipmentImportRow.row and the report's `row`: what a spreadsheet shows beside the row.
      const run = tag();
      const rows = [validRow(run, 1), { ...validRow(run, 2), receiver_email: 'nobody' }, validRow(run, 3)];
      const email = await staffMember(request, baseURL!, Role.MANAGER, 'import-manager');
      await signIn(page, email, PASSWORD);
      await page.goto(IMPORT_PATH);
      await checkFile(page, `lines-${run}.csv`, csv(rows, COLUMNS, eol), '3 rows: 2 ready to import, 1 with errors');
      const preview = page.getByRole('region', { name: 'Preview' });
      await expect(preview.getByRole('rowheader')).toHaveText(['Row 2', 'Row 3', 'Row 4']);
      await expect(page.getByRole('region', { name: 'Rows with errors' }).getByRole('rowheader')).toHaveText(['Row 3']);
    });
  }

  test('a checked import opened from Recent imports is imported from there', async ({ page, request, baseURL }) => {
    const run = tag();
    const rows = [validRow(run, 1), validRow(run, 2), validRow(run, 3)];
    const email = await staffMember(request, baseURL!, Role.MANAGER, 'import-manager');
    await signIn(page, email, PASSWORD);
    await page.goto(IMPORT_PATH);
    const name = `later-${run}.csv`;
    await checkFile(page, name, csv(rows), '3 rows: 3 ready to import, 0 with errors');
    await page.getByRole('button', { name: 'Choose another file' }).click();
    const recent = page.getByRole('region', { name: 'Recent imports' });
    const row = recent.locator('tbody tr', { hasText: name });
    await expect(row).toContainText('Checked');
    await row.getByRole('link', { name: /^Open import/ }).click();
    await expect(page).toHaveURL(/[?&]import=/);
    await expect(page.getByTestId('import-counts')).toHaveText('3 rows: 3 ready to import, 0 with errors');
    await page.getByRole('button', { name: 'Import 3 shipments' }).click();
    await expect(page.getByText('Import finished: 3 created, 0 skipped (already imported), 0 rejected.')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('link', { name: 'Download rejected rows' })).toHaveCount(0);
    await expect(row).toContainText('Finished');
    await expect(row).toContainText('3 created / 0 skipped / 0 rejected');
  });

  test('an agent has no Import tab and the page is not available to them', { tag: ONE_MODE }, async ({ page, request, baseURL }) => {
    const email = await staffMember(request, baseURL!, Role.AGENT, 'import-agent');
    await signIn(page, email, PASSWORD);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await expect(nav.getByRole('link', { name: 'Shipments' })).toBeVisible();
    await expect(page.getByLabel('Search', { exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Import' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Import CSV' })).toHaveCount(0);
    await page.goto(IMPORT_PATH);
    await expect(page.getByRole('heading', { name: 'Not available to your account' })).toBeVisible();
    await expect(page.getByLabel('CSV file')).toHaveCount(0);
  });
});

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`the Import page at ${viewport.width} px`, { tag: LAYOUT }, () => {
    test.use({ viewport });

    test('the preview and the recent imports fit the screen', async ({ page, request, baseURL }) => {
      const run = tag();
      const rows = Array.from({ length: 12 }, (_, i) => validRow(run, i + 1));
      rows[1].shipper_email = `a-very-long-address-without-any-at-sign-${run}-${'x'.repeat(60)}`;
      rows[4].shipper_name = `A shipper with a very long name that goes on and on ${run} ${'y'.repeat(80)}`;
      rows[4].pickup_time = '25:99';
      const email = await staffMember(request, baseURL!, Role.MANAGER, 'import-phone');
      await signIn(page, email, PASSWORD);
      await page.goto(IMPORT_PATH);
      await checkFile(page, `phone-${viewport.width}-${run}.csv`, csv(rows), '12 rows: 10 ready to import, 2 with errors');

      const preview = page.getByRole('region', { name: 'Preview' });
      const firstRow = preview.locator('tbody tr').first();
      await expect(firstRow).toHaveCSS('display', viewport === PHONE ? 'grid' : 'table-row');
      await expect(page.getByRole('region', { name: 'Rows with errors' }).locator('tbody tr')).toHaveCount(2);

      const offScreen = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const wide: string[] = [];
        for (const el of document.body.querySelectorAll('*')) {
          const box = el.getBoundingClientRect();
          if (box.width <= 1 || box.height <= 1) continue;
          if (box.left < -0.5 || box.right > width + 0.5) wide.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.left)}–${Math.round(box.right)}`);
        }
        return { scroll: document.documentElement.scrollWidth - window.innerWidth, wide: wide.slice(0, 10) };
      });
      expect(offScreen.wide, 'elements outside the viewport').toEqual([]);
      expect(offScreen.scroll, 'page wider than the viewport').toBeLessThanOrEqual(0);
      const [scrollWidth, clientWidth] = await preview.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scrollWidth, 'the preview table fits without scrolling').toBeLessThanOrEqual(clientWidth + 1);
      for (const name of ['Import 10 shipments', 'Choose another file']) {
        const box = (await page.getByRole('button', { name }).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      const recent = page.getByRole('region', { name: 'Recent imports' });
      await expect(recent.locator('tbody tr').first()).toHaveCSS('display', viewport === PHONE ? 'grid' : 'table-row');
      const [recentScroll, recentClient] = await recent.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(recentScroll, 'the recent imports fit without scrolling').toBeLessThanOrEqual(recentClient + 1);
    });
  });
}
