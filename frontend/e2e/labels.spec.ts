// The print page of shipment labels and waybills (/administration_and_development/labels): the
// content, barcodes a scanner decodes (ZXing-C++ reading screenshots of them), page sizes in
// the PDF Chromium prints, print media, phone and desktop widths, errors, and the entry points
// in the shipments list. Screenshots go to test-results/screenshots/labels-*.png.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import { formatDecimal, formatKg } from '../src/utils/format';
import { ADMIN_PATH, signIn } from './support/admin';
import { demoShipments, type DemoShipment } from './support/demo';
import { siteUrl } from './support/env';
import { adminRpc } from './support/rpc';
import { createShipment, partiesFor } from './support/tracking';
import { keepScreenshot } from './support/visual';
import { axeOn } from './support/page-checks';

const SCREENSHOTS = join(import.meta.dirname, '..', 'test-results', 'screenshots');
const LABELS_PATH = `${ADMIN_PATH}/labels`;
const COMPANY_NAME = 'Parcel Shipping Express';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** Points per inch in a PDF: 4 × 6 in is 288 × 432 pt, A4 is 595.3 × 841.9 pt. */
const PT = 72;

// The decoder's WebAssembly from node_modules, not from its default CDN.
const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
const wasmBinary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength);
prepareZXingModule({ overrides: { wasmBinary } });

/** A demo shipment with more than one package line. */
function shipmentWithLines(): DemoShipment {
  const found = demoShipments().find((s) => s.packages.length > 1);
  if (!found) throw new Error('no demo shipment has two package lines');
  return found;
}

function labelsUrl(ids: string, format?: string): string {
  return `${LABELS_PATH}?ids=${ids}${format ? `&format=${format}` : ''}`;
}

function trackingLink(s: DemoShipment): string {
  return `${siteUrl()}/track/${s.trackingNumber}`;
}

function sheet(page: Page, kind: 'Shipping label' | 'Waybill', s: { trackingNumber: string }): Locator {
  return page.getByRole('article', { name: `${kind} ${s.trackingNumber}` });
}

/** Every request the page makes; the test ends by checking they all stayed on this site. */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

function expectSameOrigin(urls: string[]): void {
  expect(urls.length).toBeGreaterThan(0);
  const elsewhere = urls.filter((url) => !url.startsWith('data:') && new URL(url).origin !== siteUrl());
  expect(elsewhere, 'requests to another host').toEqual([]);
}

/** What a scanner reads in a screenshot of the symbol: ZXing without its extra-effort modes. */
async function decode(symbol: Locator, format: 'Code128' | 'QRCode'): Promise<string[]> {
  const png = await symbol.screenshot();
  const results: ReadResult[] = await readBarcodes(new Uint8Array(png), {
    formats: [format],
    tryHarder: false,
    tryRotate: false,
    tryInvert: false,
    tryDownscale: false,
  });
  return results.filter((r) => r.isValid).map((r) => r.text);
}

/** The parties, the package lines and the total, as the sheet prints them. */
async function expectContent(scope: Locator, s: DemoShipment): Promise<void> {
  await expect(scope.getByText(COMPANY_NAME, { exact: true })).toBeVisible();
  for (const [name, prefix] of [
    ['Shipper', 'shipper'],
    ['Receiver', 'receiver'],
  ] as const) {
    const block = scope.getByRole('region', { name, exact: true });
    await expect(block).toContainText(s[`${prefix}Name`]);
    await expect(block).toContainText(s[`${prefix}Address`]);
    await expect(block).toContainText(s[`${prefix}Phone`]);
    await expect(block).toContainText(s[`${prefix}Email`]);
  }
  // The arrow is for the eye; a screen reader hears "to".
  const route = `${escapeRegExp(s.origin)} →\\s*to\\s*${escapeRegExp(s.destination)}`;
  await expect(scope).toContainText(new RegExp(route));
  const table = scope.getByRole('table', { name: 'Packages' });
  for (const line of s.packages) {
    const row = table.getByRole('row').filter({ hasText: line.description });
    await expect(row).toContainText(line.pieceType);
    await expect(row.getByRole('cell').first()).toHaveText(String(line.quantity));
    await expect(row).toContainText([line.length, line.width, line.height].map((n) => formatDecimal(n)).join(' × '));
    await expect(row).toContainText(formatKg(line.weight));
  }
  const totals = scope.getByTestId('package-totals');
  const pieces = s.packages.reduce((sum, line) => sum + line.quantity, 0);
  await expect(totals).toContainText(`${pieces} pieces`);
  await expect(totals).toContainText('Total weight');
  await expect(totals).toContainText(formatKg(s.totalActualWeight));
  await expect(scope.getByTestId('tracking-number')).toHaveText(s.trackingNumber);
}

/** Both symbols are SVG, decode to the number and the link, and Code 128's bars are ≥ 0.25 mm. */
async function expectReadableCodes(scope: Locator, s: DemoShipment): Promise<void> {
  const code128 = scope.getByRole('img', { name: `Code 128 barcode of ${s.trackingNumber}` });
  const qr = scope.getByRole('img', { name: `QR code of the tracking link ${trackingLink(s)}` });
  await expect(code128.locator('svg')).toHaveCount(1);
  await expect(qr.locator('svg')).toHaveCount(1);
  expect(await decode(code128, 'Code128')).toEqual([s.trackingNumber]);
  expect(await decode(qr, 'QRCode')).toEqual([trackingLink(s)]);

  // 96 CSS px to the inch at zoom 1: the bars' width on paper.
  const modules = Number((await code128.locator('svg').getAttribute('viewBox'))!.split(' ')[2]);
  const box = (await code128.boundingBox())!;
  expect((box.width / modules) * (25.4 / 96)).toBeGreaterThanOrEqual(0.25);
}

test.describe('shipment labels and waybills', () => {
  // Screenshots at 192 dpi, about a 203 dpi label printer's: the symbols are read as printed,
  // not as a 96 dpi screen blurs bars 1.9 px wide.
  test.use({ deviceScaleFactor: 2 });

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page);
  });

  test('the 4×6 label shows the company, both parties, the packages and codes a scanner reads', async ({ page }) => {
    const s = shipmentWithLines();
    const requests = recordRequests(page);
    await page.goto(labelsUrl(s.id));
    const label = sheet(page, 'Shipping label', s);
    await expect(label).toBeVisible();
    await expect(page).toHaveTitle(`Shipping labels | ${COMPANY_NAME}`);
    await expect(page.getByRole('button', { name: 'Label 4×6' })).toHaveAttribute('aria-pressed', 'true');
    await expectContent(label, s);
    // Shown by its label ("Express" for `express`).
    await expect(label.getByText(new RegExp(`^${s.typeOfShipment}$`, 'i'))).toBeVisible();
    await expectReadableCodes(label, s);
    // 4 × 6 in at 96 px to the inch.
    expect(await label.boundingBox()).toMatchObject({ width: 384, height: 576 });
    await keepScreenshot(label, join(SCREENSHOTS, 'labels-label-1280.png'));
    expectSameOrigin(requests);
  });

  test('the A4 waybill shows the same and every detail; the format switch changes the page', async ({ page }) => {
    const s = shipmentWithLines();
    const requests = recordRequests(page);
    await page.goto(labelsUrl(s.id));
    await expect(sheet(page, 'Shipping label', s)).toBeVisible();
    await page.getByRole('group', { name: 'Format' }).getByRole('button', { name: 'Waybill A4' }).click();
    await expect(page).toHaveURL(`${LABELS_PATH}?ids=${s.id}&format=waybill`);
    await expect(page.getByRole('button', { name: 'Waybill A4' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('heading', { level: 1, name: 'Waybills' })).toBeVisible();
    const waybill = sheet(page, 'Waybill', s);
    await expectContent(waybill, s);
    await expect(waybill.getByRole('region', { name: 'Shipment details' })).toContainText(s.carrier);
    await expect(waybill.getByRole('region', { name: 'Comments' })).toContainText(s.comments);
    await expectReadableCodes(waybill, s);
    await keepScreenshot(waybill, join(SCREENSHOTS, 'labels-waybill-1280.png'));
    expectSameOrigin(requests);
  });

  test('several ids: one page each, in order, every code readable, at the format’s paper size', async ({ page }) => {
    const all = demoShipments();
    await page.goto(labelsUrl(all.map((s) => s.id).join(',')));
    await expect(page.getByText(`${all.length} shipments`)).toBeVisible();
    const labels = page.getByRole('article');
    await expect(labels).toHaveCount(all.length);
    for (const [index, s] of all.entries()) {
      await expect(labels.nth(index)).toHaveAttribute('data-tracking-number', s.trackingNumber);
      await expectReadableCodes(labels.nth(index), s);
    }
    await page.emulateMedia({ media: 'print' });
    await expect(labels.first()).toHaveCSS('break-after', 'page');
    await expect(labels.last()).toHaveCSS('break-after', 'auto');
    // Back to no emulation: page.pdf() under emulated screen media would print the screen layout.
    await page.emulateMedia({ media: null });

    // What Chromium prints: one page per shipment, 4 × 6 in, then A4 for the waybills.
    const first = all.slice(0, 2);
    await page.goto(labelsUrl(first.map((s) => s.id).join(',')));
    await expect(page.getByRole('article')).toHaveCount(2);
    expect(pageSizes(await page.pdf({ preferCSSPageSize: true }))).toEqual([
      [4 * PT, 6 * PT],
      [4 * PT, 6 * PT],
    ]);
    await page.getByRole('button', { name: 'Waybill A4' }).click();
    await expect(page.getByRole('article', { name: `Waybill ${first[1].trackingNumber}` })).toBeVisible();
    const a4 = pageSizes(await page.pdf({ preferCSSPageSize: true }));
    expect(a4).toHaveLength(2);
    for (const [width, height] of a4) {
      expect(width).toBeCloseTo((210 / 25.4) * PT, 0);
      expect(height).toBeCloseTo((297 / 25.4) * PT, 0);
    }
  });

  test('print media: the sheets alone, black on white even in dark mode', async ({ page }) => {
    const s = shipmentWithLines();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(labelsUrl(s.id));
    const label = sheet(page, 'Shipping label', s);
    await expect(label).toBeVisible();
    const toolbar = page.getByTestId('labels-toolbar');
    await expect(toolbar).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print' })).toBeEnabled();

    await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
    await expect(toolbar).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(page.locator('.site-header')).toBeHidden();
    await expect(page.locator('.site-footer')).toBeHidden();
    await expect(page.locator('.admin-bar')).toBeHidden();
    await expect(label).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await expect(label).toHaveCSS('color', 'rgb(0, 0, 0)');
    await expect(label.getByRole('region', { name: 'Receiver' })).toHaveCSS('color', 'rgb(0, 0, 0)');
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    // Printed where a sheet of paper starts: nothing above it.
    expect(await label.boundingBox()).toMatchObject({ x: 0, y: 0 });
    await keepScreenshot(page, join(SCREENSHOTS, 'labels-print-dark.png'));
  });

  test('the longest text the server accepts leaves the label’s codes whole; the waybill has it all', async ({
    page,
    request,
    baseURL,
  }) => {
    const run = Date.now().toString(36).slice(-6);
    // Exactly `length` characters of long words: the server's limit for each field.
    const text = (length: number) => `Wolfeschlegelsteinhausenbergerdorff ${run} `.repeat(20).slice(0, length - 1) + 'Z';
    const party = (who: string) => ({
      name: text(100),
      address: text(300),
      phone: '+44 (20) 7946-0958 1234 567 8',
      email: `${who}.${'x'.repeat(50)}@${'long-subdomain.'.repeat(4)}example.com`,
    });
    const lines = Array.from({ length: 10 }, (_, i) => ({
      quantity: i + 1,
      pieceType: text(50),
      description: `${i + 1} ${text(199 - String(i + 1).length)}`,
      lengthCm: 120,
      widthCm: 100,
      heightCm: 110,
      weightKg: 25.5,
    }));
    const long = await createShipment(await adminRpc(request, baseURL!), run, {
      shipper: party('shipper'),
      receiver: party('receiver'),
      origin: text(200),
      destination: text(200),
      carrier: text(100),
      packages: lines,
    });

    await page.goto(labelsUrl(long.id));
    const label = page.getByRole('article', { name: `Shipping label ${long.trackingNumber}` });
    await expect(label).toBeVisible();
    const paper = (await label.boundingBox())!;
    const kept = [label.getByRole('img'), label.getByTestId('tracking-number'), label.getByTestId('package-totals')];
    for (const symbol of kept) {
      for (const box of await Promise.all((await symbol.all()).map((one) => one.boundingBox()))) {
        expect(box!.y).toBeGreaterThanOrEqual(paper.y);
        expect(box!.y + box!.height).toBeLessThanOrEqual(paper.y + paper.height);
      }
    }
    expect(await decode(label.getByRole('img', { name: /^Code 128/ }), 'Code128')).toEqual([long.trackingNumber]);
    await expect(label.getByRole('row').filter({ hasText: '+ 7 more lines: see the waybill' })).toHaveCount(1);
    expect(pageSizes(await page.pdf({ preferCSSPageSize: true }))).toHaveLength(1);
    await keepScreenshot(label, join(SCREENSHOTS, 'labels-label-longest.png'));

    await page.getByRole('button', { name: 'Waybill A4' }).click();
    const waybill = page.getByRole('article', { name: `Waybill ${long.trackingNumber}` });
    // Every line, head and total rows around them.
    await expect(waybill.getByRole('table', { name: 'Packages' }).getByRole('row')).toHaveCount(10 + 2);
    await expect(waybill.getByRole('region', { name: 'Receiver' })).toContainText(text(300));
  });

  test('the Print button prints the page', async ({ page }) => {
    const s = shipmentWithLines();
    await page.goto(labelsUrl(s.id));
    await expect(sheet(page, 'Shipping label', s)).toBeVisible();
    await page.evaluate(() => {
      // Counted instead of opening the browser's print dialog.
      window.print = () => {
        document.body.dataset.printed = String(Number(document.body.dataset.printed ?? 0) + 1);
      };
    });
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    await expect(page.locator('body')).toHaveAttribute('data-printed', '1');
  });

  for (const viewport of [PHONE, DESKTOP]) {
    for (const format of ['label', 'waybill'] as const) {
      test(`${format} at ${viewport.width} px: the preview fits the width, no sideways scroll`, async ({ page }) => {
        const s = shipmentWithLines();
        await page.setViewportSize(viewport);
        await page.goto(labelsUrl(s.id, format));
        const one = sheet(page, format === 'label' ? 'Shipping label' : 'Waybill', s);
        await expect(one).toBeVisible();
        await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
        const box = (await one.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBe(0);
        await keepScreenshot(page, join(SCREENSHOTS, `labels-${format}-${viewport.width}.png`), { fullPage: true });
      });
    }
  }

  for (const theme of ['light', 'dark'] as const) {
    test(`axe finds nothing serious on the label and waybill pages (${theme})`, async ({ page }) => {
      const s = shipmentWithLines();
      await page.emulateMedia({ colorScheme: theme });
      const found: string[] = [];
      for (const format of ['label', 'waybill']) {
        // An unknown id too, so the error message is checked as well.
        await page.goto(labelsUrl(`${s.id},nosuchshipment0`, format));
        await expect(page.getByRole('main').getByRole('alert')).toBeVisible();
        await expect(page.getByRole('article')).toHaveCount(1);
        const { violations } = await axeOn(page)
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
          .analyze();
        for (const v of violations) {
          if (v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order') {
            found.push(`${format}: ${v.id} (${v.impact}) ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
          }
        }
      }
      expect(found).toEqual([]);
    });
  }

  test('an unknown id is named; the other shipments still print', async ({ page }) => {
    const s = shipmentWithLines();
    await page.goto(labelsUrl(`${s.id},nosuchshipment0`));
    await expect(page.getByRole('main').getByRole('alert')).toContainText('Shipment not found: nosuchshipment0');
    await expect(page.getByRole('article')).toHaveCount(1);
    await expect(sheet(page, 'Shipping label', s)).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('main').getByRole('alert')).toBeHidden();
  });

  test('no ids, or more than 100: a clear message and nothing to print', async ({ page }) => {
    await page.goto(LABELS_PATH);
    await expect(page.getByRole('main').getByRole('alert')).toHaveText('No shipments selected.');
    await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(0);

    const ids = Array.from({ length: 101 }, (_, i) => `id${i}`).join(',');
    let calls = 0;
    page.on('request', (request) => {
      // The staff's change feed (WatchShipmentChanges) is no request for shipments to print.
      if (request.url().includes('/logistics.v1.ShipmentService/') && !request.url().includes('/Watch')) calls += 1;
    });
    await page.goto(labelsUrl(ids));
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'Too many shipments selected: 101. At most 100 can be printed at once.',
    );
    await expect(page.getByRole('article')).toHaveCount(0);
    expect(calls).toBe(0);
  });

  test('the shipments ticked in the list open as labels and waybills in a new tab', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    // Two shipments of this test's own, found by search: other tests' shipments may fill page 1.
    const run = `lb${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const admin = await adminRpc(request, baseURL!);
    // The list searches parties' names (not products), so the run tag goes in the shipper's.
    const shipper = { ...partiesFor(run).shipper, name: `Maria ${run}` };
    const s = await createShipment(admin, run, { shipper });
    const t = await createShipment(admin, run, { shipper });
    await page.getByLabel('Search').fill(run);
    await expect(page.getByTestId('shipment-count')).toHaveText('2 shipments');
    await page.getByRole('checkbox', { name: `Select shipment ${s.trackingNumber}` }).check();
    await page.getByRole('checkbox', { name: `Select shipment ${t.trackingNumber}` }).check();
    const bar = page.getByRole('region', { name: 'Selected shipments' });
    for (const [name, kind, format] of [
      ['Print labels', 'Shipping label', 'label'],
      ['Print waybills', 'Waybill', 'waybill'],
    ] as const) {
      const link = bar.getByRole('link', { name: `${name} (opens in a new tab)` });
      await expect(link).toHaveAttribute('target', '_blank');
      const opened = context.waitForEvent('page');
      await link.click();
      const tab = await opened;
      await expect(tab).toHaveURL(new RegExp(`labels\\?ids=(${s.id},${t.id}|${t.id},${s.id})&format=${format}$`));
      await expect(sheet(tab, kind, s)).toBeVisible();
      await expect(sheet(tab, kind, t)).toBeVisible();
      await tab.close();
    }

    const list = page.getByRole('region', { name: 'Shipments' });
    const row = list.locator(`tr[data-tracking-number="${s.trackingNumber}"]`);
    // The View dialog links to both as well.
    await row.getByRole('button', { name: `View shipment ${s.trackingNumber}` }).click();
    const view = page.getByRole('dialog', { name: `Shipment ${s.trackingNumber}` });
    for (const [name, format] of [
      ['Label', 'label'],
      ['Waybill', 'waybill'],
    ] as const) {
      const link = view.getByRole('link', { name: `${name} (opens in a new tab)` });
      await expect(link).toHaveAttribute('href', labelsUrl(s.id, format));
      await expect(link).toHaveAttribute('target', '_blank');
    }
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The width and height (pt) of each page of a PDF, from its /MediaBox entries. */
function pageSizes(pdf: Buffer): Array<[number, number]> {
  const boxes = pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/g);
  return [...boxes].map((m) => [Number(m[1]), Number(m[2])]);
}
