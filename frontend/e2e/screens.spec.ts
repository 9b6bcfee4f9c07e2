// Issue 23, how the screens look between a phone and a desktop: the "On hold <date>" marker breaks
// between its word and its date, never inside them, at every width (19); the shipments list's
// filters fold on a phone behind a "Filters" button that says how many are set (22); the
// dashboard's labels line up, its sentence has single spaces and its chart has dates and a
// y-axis (24); the Audit and E-mails pages fold their filter forms the same way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { ADMIN_PATH, signIn } from './support/admin';
import { demoShipmentWithStatus } from './support/demo';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// Just past where the layout changes (the progress steps go into five columns at 760 px): the
// narrowest columns, where the marker once broke.
const BETWEEN = [768].map((width) => ({ width, height: 900 }));

function shot(name: string, width: number, scheme = 'light'): string {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, `${name}-${width}-${scheme}.png`);
}

/** The distinct line tops of each character of `text` inside `element`, in order of the text. */
async function lineTops(element: Locator, text: string): Promise<number[]> {
  return element.evaluate((el, wanted) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const chars: Array<{ ch: string; top: number }> = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) chars.push({ ch: node.textContent![i], top: Math.round(rect.top) });
      }
    }
    const all = chars.map((c) => c.ch).join('');
    const at = all.indexOf(wanted);
    if (at < 0) throw new Error(`"${wanted}" is not in "${all}"`);
    return [...new Set(chars.slice(at, at + wanted.length).filter((c) => c.ch.trim()).map((c) => c.top))];
  }, text);
}

async function dark(page: Page): Promise<void> {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
}

for (const viewport of [PHONE, ...BETWEEN, DESKTOP]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`an "On hold <date>" marker keeps its words and its date whole (19), at ${viewport.width} px`, async ({ page }) => {
      const shipment = demoShipmentWithStatus('on_hold');
      await page.goto(`/track/${shipment.trackingNumber}`);
      const step = page.locator('li[aria-current="step"]');
      const marker = step.locator('.progress-marker');
      await expect(marker).toBeVisible();
      const date = (await marker.locator('time').textContent())!.trim();
      const label = (await marker.textContent())!.replace(date, '').trim();
      expect(label).toBe('On hold');
      expect(await lineTops(marker, label), `"${label}" on one line`).toHaveLength(1);
      expect(await lineTops(marker, date), `"${date}" on one line`).toHaveLength(1);
      // Within its step's column.
      const [box, column] = [await marker.boundingBox(), await step.boundingBox()];
      expect(box!.x).toBeGreaterThanOrEqual(column!.x - 0.5);
      expect(box!.x + box!.width).toBeLessThanOrEqual(column!.x + column!.width + 0.5);
      await marker.scrollIntoViewIfNeeded();
      await keepScreenshot(page.locator('.progress-card'), shot('progress-on-hold', viewport.width));
      await dark(page);
      await expect(marker).toBeVisible();
      await marker.scrollIntoViewIfNeeded();
      await keepScreenshot(page.locator('.progress-card'), shot('progress-on-hold', viewport.width, 'dark'));
      await page.emulateMedia({ colorScheme: 'light' });

      // The status badges of the list stay one line in their cell too.
      await signIn(page);
      const badges = page.getByRole('region', { name: 'Shipments' }).locator('.status-badge');
      await expect(badges.first()).toBeVisible();
      for (const badge of await badges.all()) {
        const text = (await badge.textContent())!.trim();
        expect(await lineTops(badge, text), `badge "${text}" on one line`).toHaveLength(1);
      }
    });
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  const px = `${viewport.width} px`;
  const phone = viewport === PHONE;

  test.describe(`the shipments dashboard at ${px}`, () => {
    test.use({ viewport });

    test(`the filters fold behind a "Filters" button that counts those set (22), at ${px}`, async ({ page }) => {
      await signIn(page);
      const toggle = page.getByRole('button', { name: /^Filters/ });
      const status = page.getByLabel('Status', { exact: true });
      const firstRow = page.getByRole('region', { name: 'Shipments' }).locator('tbody tr').first();
      await expect(firstRow).toBeVisible();
      // Folded on a phone, open on a wide screen.
      await expect(toggle).toHaveAttribute('aria-expanded', phone ? 'false' : 'true');
      await expect(status).toBeVisible({ visible: !phone });
      const panel = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
      await expect(panel.getByLabel('Status', { exact: true })).toBeAttached();
      if (phone) {
        // The first shipment comes soon after the search box, not ~700 px of filters later.
        const search = await page.getByLabel('Search', { exact: true }).boundingBox();
        const row = await firstRow.boundingBox();
        expect(row!.y - search!.y, 'from the search box to the first shipment').toBeLessThanOrEqual(320);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByLabel('Search', { exact: true }).scrollIntoViewIfNeeded();
        await keepScreenshot(page, shot('filters-folded', viewport.width));
      }

      // Opened (or closed, and opened again), a filter set is counted on the button and kept in
      // the address.
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', phone ? 'true' : 'false');
      if (!phone) {
        await expect(status).toBeHidden();
        await toggle.click();
      }
      await expect(status).toBeVisible();
      await status.selectOption('in_transit');
      // The box shows what the address says: it is ticked once the address has changed.
      await page.getByLabel('Late only').click();
      await expect(page.getByLabel('Late only')).toBeChecked();
      await expect(page).toHaveURL(/status=in_transit/);
      await expect(page).toHaveURL(/late=1/);
      await expect(toggle).toHaveAccessibleName('Filters 2 set');
      await page.getByLabel('Search', { exact: true }).scrollIntoViewIfNeeded();
      await keepScreenshot(page, shot('filters-open', viewport.width));

      await page.reload();
      await expect(toggle).toHaveAttribute('aria-expanded', phone ? 'false' : 'true');
      await expect(toggle).toHaveAccessibleName('Filters 2 set');
      if (phone) await toggle.click();
      await expect(status).toHaveValue('in_transit');
      await dark(page);
      await expect(firstRow).toBeVisible();
      await page.getByLabel('Search', { exact: true }).scrollIntoViewIfNeeded();
      await keepScreenshot(page, shot('filters', viewport.width, 'dark'));
    });

    test(`the dashboard's labels line up, its figures read with single spaces, its chart has dates and an axis (24), at ${px}`, async ({ page }) => {
      await signIn(page);
      await expect(page).toHaveURL(new RegExp(`${ADMIN_PATH}$`));
      const chart = page.locator('figure.daily-chart');
      await expect(chart).toBeVisible();

      // "Last 30 days: 12 created, 3 delivered": a number is one space from its word.
      const gaps = await chart.locator('figcaption').evaluate((caption) =>
        [...caption.querySelectorAll('strong')].map((strong) => {
          const next = strong.nextSibling!;
          const range = document.createRange();
          const offset = next.textContent!.search(/\S/);
          range.setStart(next, offset);
          range.setEnd(next, offset + 1);
          return range.getBoundingClientRect().left - strong.getBoundingClientRect().right;
        }),
      );
      expect(gaps).toHaveLength(2);
      for (const gap of gaps) expect(gap, 'the room between a number and its word').toBeLessThanOrEqual(8);
      await expect(chart.locator('figcaption')).toContainText(/^Last 30 days: \d+ created, \d+ delivered/);

      // The chart's dates: the last day's and one a week before it, shown under the bars.
      const days = await chart.locator('table tbody th').allTextContents();
      const values = (await chart.locator('table tbody td').allTextContents()).map(Number);
      expect(days).toHaveLength(30);
      for (const day of [days[29], days[22], days[15]]) {
        await expect(chart.getByText(day, { exact: true }).filter({ visible: true })).toHaveCount(1);
      }
      // A y-axis from 0 up to at least the largest number.
      const ticks = (await chart.locator('.chart-tick').allTextContents()).map(Number);
      expect(ticks[0]).toBe(0);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(Math.max(...ticks)).toBeGreaterThanOrEqual(Math.max(...values));
      for (const tick of await chart.locator('.chart-tick').all()) await expect(tick).toBeVisible();
      // The numbers themselves, for a screen reader, in a table.
      await chart.getByText('Numbers per day').click();
      await expect(chart.getByRole('table')).toBeVisible();
      await chart.getByText('Numbers per day').click();

      // Labels side by side share one line: the filters' labels and the figures' labels.
      if (phone) await page.getByRole('button', { name: /^Filters/ }).click();
      for (const labels of [page.locator('[role="search"] .field-label'), page.locator('.figure-label'), page.locator('.figure-value')]) {
        const tops = await labels.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
        for (const a of tops) {
          for (const b of tops) {
            // In the same row when less than a line apart; then at the same height.
            if (Math.abs(a - b) < 16) expect(Math.abs(a - b), 'labels in one row line up').toBeLessThanOrEqual(1);
          }
        }
      }
      await keepScreenshot(chart, shot('dashboard-chart', viewport.width));
      await keepScreenshot(page, shot('dashboard', viewport.width));
      await dark(page);
      await expect(chart).toBeVisible();
      await chart.scrollIntoViewIfNeeded();
      await keepScreenshot(page, shot('dashboard', viewport.width, 'dark'));
    });
  });
}

// The Audit and E-mails pages fold their filter forms the same way (the shared FilterFold).
const FOLDED_LISTS = [
  { name: 'Audit', path: `${ADMIN_PATH}/audit`, form: 'Filter the audit log', field: 'Action', list: 'Audit entries', set: { 'Shipment or user': 'PSE' } },
  { name: 'E-mails', path: `${ADMIN_PATH}/emails`, form: 'Filter the emails', field: 'State', list: 'Emails', set: { 'Recipient or tracking number': '@' } },
] as const;

for (const viewport of [PHONE, DESKTOP]) {
  const px = `${viewport.width} px`;
  const phone = viewport === PHONE;
  for (const screen of FOLDED_LISTS) {
    test.describe(`the ${screen.name} page at ${px}`, () => {
      test.use({ viewport });

      test(`its filters fold on a phone behind "Filters", like the shipments list's (22), at ${px}`, async ({ page }) => {
        await signIn(page);
        await page.goto(screen.path);
        const toggle = page.getByRole('button', { name: /^Filters/ });
        const form = page.getByRole('form', { name: screen.form });
        const field = page.getByLabel(screen.field, { exact: true });
        const first = page.getByRole('list', { name: screen.list }).getByRole('listitem').first();
        await expect(first).toBeVisible();
        await expect(toggle).toHaveAttribute('aria-expanded', phone ? 'false' : 'true');
        await expect(page.locator(`#${await toggle.getAttribute('aria-controls')}`).getByLabel(screen.field, { exact: true })).toBeAttached();
        await expect(field).toBeVisible({ visible: !phone });
        if (phone) {
          // The first entry shows on the first screen, right under the buttons, not a form later.
          const buttons = await toggle.boundingBox();
          const entry = await first.boundingBox();
          expect(entry!.y - (buttons!.y + buttons!.height), 'from the Filters button to the first entry').toBeLessThanOrEqual(80);
          expect(entry!.y + 48, 'the first entry on the first screen').toBeLessThanOrEqual(viewport.height);
          await keepScreenshot(page, shot(`${screen.name.toLowerCase()}-filters-folded`, viewport.width));
          await toggle.click();
          await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        }
        await expect(form).toBeVisible();
        await expect(field).toBeVisible();
        // Opened, the form sits under the buttons and above the entries, within the screen's width.
        const box = await form.boundingBox();
        expect(box!.y).toBeGreaterThan((await toggle.boundingBox())!.y);
        expect((await first.boundingBox())!.y).toBeGreaterThan(box!.y + box!.height);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').toBeLessThanOrEqual(viewport.width);

        // A filter applied is counted on the button, and stays counted, folded, after a reload.
        for (const [label, value] of Object.entries(screen.set)) await form.getByLabel(label).fill(value);
        await form.getByRole('button', { name: 'Apply filters' }).click();
        await expect(toggle).toHaveAccessibleName('Filters 1 set');
        await keepScreenshot(page, shot(`${screen.name.toLowerCase()}-filters-open`, viewport.width));
        await page.reload();
        await expect(toggle).toHaveAccessibleName('Filters 1 set');
        await expect(toggle).toHaveAttribute('aria-expanded', phone ? 'false' : 'true');
      });
    });
  }
}
