// Visual defects found by a browser audit of the public pages, each checked at phone (390 px)
// and desktop (1280 px) widths, in light and dark where colour matters. Screenshots go to
// test-results/screenshots/visual-*.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { formatDimensionsCm, formatKg } from '../src/utils/format';
import { LOGIN_PATH, SESSION_SERVICE_PATH, SHIPMENT_SERVICE_PATH, loginError, signIn } from './support/admin';
import { demoShipments, type DemoShipment } from './support/demo';
import { siteUrl } from './support/env';
import { adminRpc } from './support/rpc';
import { waitForHydration } from './support/hydrated';
import { toastWithText } from './support/track-page';
import { SCREENSHOTS, backdropColour, contentUnder, contrastRatio, parseRgb, scrollWindowTo, keepScreenshot } from './support/visual';
import { axeOn } from './support/page-checks';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const WIDTHS = [PHONE, DESKTOP];
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

test.beforeAll(() => mkdirSync(SCREENSHOTS, { recursive: true }));

/** A page at this size and colour scheme, with entrance animations already finished. */
async function openPage(browser: Browser, viewport: { width: number; height: number }, theme: Theme = 'light') {
  const context = await browser.newContext({ viewport, colorScheme: theme, reducedMotion: 'reduce' });
  return { context, page: await context.newPage() };
}

async function gotoPage(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.page-spinner, .track-loading')).toHaveCount(0);
  // A tap on the prerendered page before React takes over is a plain form submission.
  await waitForHydration(page);
}

function shotPath(name: string, width: number, theme: Theme = 'light'): string {
  return join(SCREENSHOTS, `visual-${name}-${width}${theme === 'dark' ? '-dark' : ''}.png`);
}

/** The demo shipment with the most package lines (ties: the longest description). */
function shipmentWithMostPackages(): DemoShipment {
  const descriptionLength = (s: DemoShipment) => Math.max(...s.packages.map((p) => p.description.length));
  return [...demoShipments()].sort(
    (a, b) => b.packages.length - a.packages.length || descriptionLength(b) - descriptionLength(a),
  )[0];
}

/**
 * Every value of the packages table, and of its total row, is on screen: inside the viewport,
 * not clipped by the table's scrolling box, and (where the table is stacked into cards) next to
 * its column's label.
 */
async function expectPackagesReadable(page: Page, scope: Locator, s: DemoShipment): Promise<void> {
  const region = scope.getByRole('region', { name: 'Packages table' });
  const rows = region.locator('tbody tr');
  await expect(rows).toHaveCount(s.packages.length);
  for (const [index, p] of s.packages.entries()) {
    await expect(rows.nth(index).getByRole('cell')).toHaveText([
      String(p.quantity),
      p.pieceType,
      p.description,
      formatDimensionsCm(p.length, p.width, p.height),
      formatKg(p.weight),
    ]);
  }
  const total = region.locator('tfoot tr');
  await expect(total.getByRole('rowheader')).toHaveText('Total weight');
  const totalWeight = s.packages.reduce((sum, p) => sum + p.weight * p.quantity, 0);
  await expect(total.getByRole('cell')).toHaveText(formatKg(Math.round(totalWeight * 1000) / 1000));

  const viewportWidth = page.viewportSize()!.width;
  const scrollbox = await region.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollbox.scrollWidth, 'the packages table needs no sideways scrolling').toBeLessThanOrEqual(scrollbox.clientWidth);
  const regionBox = (await region.boundingBox())!;
  const cells = region.locator('tbody td, tfoot th, tfoot td');
  for (let i = 0; i < (await cells.count()); i++) {
    const cell = cells.nth(i);
    await cell.scrollIntoViewIfNeeded();
    await expect(cell).toBeVisible();
    const box = (await cell.boundingBox())!;
    const label = `cell ${i} "${await cell.textContent()}"`;
    expect(box.x, label).toBeGreaterThanOrEqual(Math.max(0, regionBox.x) - 0.5);
    expect(box.x + box.width, label).toBeLessThanOrEqual(Math.min(viewportWidth, regionBox.x + regionBox.width) + 0.5);
  }
  // Stacked (narrow): each value shows its column's name beside it.
  const firstCell = rows.first().getByRole('cell').first();
  const stacked = await firstCell.evaluate((td) => getComputedStyle(td).display !== 'table-cell');
  if (stacked) {
    const labels = await rows
      .first()
      .getByRole('cell')
      .evaluateAll((tds) => tds.map((td) => getComputedStyle(td, '::before').content));
    expect(labels.map((l) => l.replace(/^"|" \/ ""$|"$/g, ''))).toEqual([
      'Quantity',
      'Piece Type',
      'Description',
      'Dimensions (L×W×H)',
      'Weight',
    ]);
  }
}

test.describe('1. packages table on a phone', () => {
  const s = () => shipmentWithMostPackages();

  for (const viewport of [{ width: 320, height: 700 }, PHONE, DESKTOP]) {
    test(`track result at ${viewport.width} px: every column and the total are readable`, async ({ browser }) => {
      const { context, page } = await openPage(browser, viewport);
      // The packages are in the full view only: staff see it.
      await adminRpc(context.request, siteUrl());
      await gotoPage(page, `/track/${s().trackingNumber}`);
      const section = page.locator('section', { has: page.getByRole('heading', { name: 'Packages', exact: true }) });
      await expectPackagesReadable(page, section, s());
      const stacked = await section.locator('tbody td').first().evaluate((td) => getComputedStyle(td).display !== 'table-cell');
      expect(stacked, 'stacked into cards on a phone, a table on a desktop').toBe(viewport.width < 800);
      await keepScreenshot(section, shotPath('packages', viewport.width));
      await context.close();
    });
  }

  test('track result at 390 px in dark mode: the stacked labels are legible', async ({ browser }) => {
    const { context, page } = await openPage(browser, PHONE, 'dark');
    await adminRpc(context.request, siteUrl());
    await gotoPage(page, `/track/${s().trackingNumber}`);
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Packages', exact: true }) });
    await expectPackagesReadable(page, section, s());
    const { label, value, background } = await section.locator('tbody td').first().evaluate((td) => {
      let bg = td as Element | null;
      while (bg && getComputedStyle(bg).backgroundColor === 'rgba(0, 0, 0, 0)') bg = bg.parentElement;
      return {
        label: getComputedStyle(td, '::before').color,
        value: getComputedStyle(td).color,
        background: getComputedStyle(bg!).backgroundColor,
      };
    });
    expect(contrastRatio(parseRgb(label), parseRgb(background))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(parseRgb(value), parseRgb(background))).toBeGreaterThanOrEqual(4.5);
    await keepScreenshot(section, shotPath('packages', PHONE.width, 'dark'));
    await context.close();
  });

  for (const viewport of WIDTHS) {
    test(`admin View dialog at ${viewport.width} px: every column and the total are readable`, async ({ browser }) => {
      const { context, page } = await openPage(browser, viewport);
      await signIn(page);
      const shipment = s();
      const answered = page.waitForResponse((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}ListShipments`));
      await page.getByLabel('Search', { exact: true }).fill(shipment.trackingNumber);
      await answered;
      await page.getByRole('button', { name: `View shipment ${shipment.trackingNumber}` }).click();
      const view = page.getByRole('dialog', { name: `Shipment ${shipment.trackingNumber}` });
      await expect(view).toBeVisible();
      await expectPackagesReadable(page, view, shipment);
      await keepScreenshot(view.locator('section', { has: page.locator('#view-packages') }), shotPath('admin-view-packages', viewport.width));
      await context.close();
    });
  }
});

test.describe('2. toasts', () => {
  const SENT = 'Message sent successfully!';
  // The track page says a failed lookup inline only; an empty Track is its error toast.
  const EMPTY = 'Please enter a tracking number.';

  /** Presses Track with nothing typed: the error toast follows. */
  async function trackNothing(page: Page): Promise<void> {
    await gotoPage(page, '/track');
    await page.getByRole('button', { name: 'Track', exact: true }).click();
  }

  /** Sends a contact message; the success toast follows. */
  async function sendContactMessage(page: Page): Promise<void> {
    await gotoPage(page, '/contact');
    const form = page.getByRole('form', { name: 'Send Us a Message' });
    await form.getByLabel('Name').fill('Vera Visual');
    await form.getByLabel('Email').fill('vera@example.com');
    await form.getByLabel('Subject').fill('Toast colours');
    await form.getByLabel('Message').fill('Is this readable?');
    await form.getByRole('button', { name: 'Send Message' }).click();
  }

  /** The toast showing this text, once it has fully entered. */
  async function shownToast(page: Page, text: string): Promise<Locator> {
    await expect(toastWithText(page, text)).toBeVisible();
    const toast = page.locator('.Toastify__toast').filter({ has: page.getByText(text, { exact: true }) });
    await expect(toast).toHaveAttribute('data-in', 'true');
    return toast;
  }

  async function expectLegible(toast: Locator): Promise<string> {
    const style = await toast.evaluate((el) => {
      const cs = getComputedStyle(el);
      return { color: cs.color, bg: cs.backgroundColor, font: cs.fontFamily, bodyFont: getComputedStyle(document.body).fontFamily };
    });
    expect(style.font, "the site's font, not the library's").toBe(style.bodyFont);
    const ratio = contrastRatio(parseRgb(style.color), parseRgb(style.bg));
    expect(ratio, `text ${style.color} on ${style.bg}`).toBeGreaterThanOrEqual(4.5);
    return `${ratio.toFixed(2)}:1 (${style.color} on ${style.bg})`;
  }

  /** Shows a toast with `show` and rests the pointer on it, which pauses its 5-second timer; on a
   * machine so busy that it closed before the pointer got there, shows it again. */
  async function heldToast(page: Page, show: () => Promise<void>, text: string): Promise<Locator> {
    let toast = page.locator('.Toastify__toast');
    await expect(async () => {
      await expect(toastWithText(page, text)).toHaveCount(0);
      await show();
      toast = await shownToast(page, text);
      await toast.hover({ timeout: 2_000 });
      await expect(toast).toHaveAttribute('data-in', 'true', { timeout: 500 });
    }).toPass({ timeout: 25_000 });
    return toast;
  }

  async function expectNoSeriousAxeViolation(page: Page, toast: Locator): Promise<void> {
    const { violations } = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    await expect(toast).toBeVisible();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious).toEqual([]);
  }

  for (const viewport of WIDTHS) {
    for (const theme of THEMES) {
      test(`success and error toasts are legible and in the site's font at ${viewport.width} px (${theme})`, async ({ browser }) => {
        const { context, page } = await openPage(browser, viewport, theme);
        const success = await expectLegible(await heldToast(page, () => sendContactMessage(page), SENT));
        await keepScreenshot(page, shotPath('toast-success', viewport.width, theme));
        const error = await expectLegible(await heldToast(page, () => trackNothing(page), EMPTY));
        await keepScreenshot(page, shotPath('toast-error', viewport.width, theme));
        test.info().annotations.push({ type: 'contrast', description: `success ${success}; error ${error}` });
        await context.close();
      });
    }
  }

  for (const theme of THEMES) {
    test(`axe finds no serious violation on the contact page with its success toast showing (${theme})`, async ({ browser }) => {
      const { context, page } = await openPage(browser, DESKTOP, theme);
      await expectNoSeriousAxeViolation(page, await heldToast(page, () => sendContactMessage(page), SENT));
      await context.close();
    });
  }

  test('axe finds no serious violation on the track page with its error toast showing (phone)', async ({ browser }) => {
    const { context, page } = await openPage(browser, PHONE);
    await expectNoSeriousAxeViolation(page, await heldToast(page, () => trackNothing(page), EMPTY));
    await context.close();
  });

  test('with reduced motion a toast still stays for its 5 seconds', async ({ browser }) => {
    const { context, page } = await openPage(browser, PHONE);
    await trackNothing(page);
    const toast = await shownToast(page, EMPTY);
    // The progress bar's animation is the toast's timer (it closes the toast when it ends).
    await expect(toast.locator('.Toastify__progress-bar')).toHaveCSS('animation-duration', '5s');
    await context.close();
  });
});

test.describe('3. the floating theme switch', () => {
  const PAGES = [
    { name: 'home', path: '/' },
    { name: 'faq', path: '/faq' },
    { name: 'terms', path: '/terms' },
    { name: 'contact', path: '/contact' },
  ];

  async function inViewport(page: Page, element: Locator): Promise<boolean> {
    const box = await element.boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= page.viewportSize()!.height;
  }

  for (const viewport of WIDTHS) {
    test(`covers no link, field or text of Home, FAQ, Terms and Contact at any scroll position at ${viewport.width} px`, async ({ browser }) => {
      const { context, page } = await openPage(browser, viewport);
      const toggle = page.getByRole('button', { name: 'Switch to dark mode' });
      for (const { name, path } of PAGES) {
        await gotoPage(page, path);
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        // From the top to the bottom, half a screen at a time, and the very bottom.
        for (let top = 0; top < height; top += viewport.height / 2) {
          await scrollWindowTo(page, top);
          expect(await contentUnder(toggle), `${path} scrolled to ${top}px`).toEqual([]);
        }
        await scrollWindowTo(page, height);
        await expect(toggle, 'at the end of the page the switch is there').toBeInViewport();
        expect(await contentUnder(toggle), `${path} scrolled to the bottom`).toEqual([]);
        if (name === 'home') {
          const faq = page.getByRole('contentinfo').getByRole('link', { name: 'FAQ', exact: true });
          await expect(faq).toBeInViewport();
          const [link, button] = [(await faq.boundingBox())!, (await toggle.boundingBox())!];
          expect(link.x + link.width, 'the footer FAQ link ends left of the switch').toBeLessThan(button.x);
        }
        await keepScreenshot(page, shotPath(`toggle-${name}-bottom`, viewport.width));
      }
      await context.close();
    });

    for (const theme of THEMES) {
      test(`stands out from what is behind it at ${viewport.width} px (${theme})`, async ({ browser }) => {
        const { context, page } = await openPage(browser, viewport, theme);
        const toggle = page.getByRole('button', { name: theme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode' });
        const found: string[] = [];
        for (const { path } of PAGES) {
          await gotoPage(page, path);
          const { fill, ring, icon } = await toggle.evaluate((el) => {
            const cs = getComputedStyle(el);
            return { fill: cs.backgroundColor, ring: cs.borderTopColor, icon: cs.color };
          });
          expect(contrastRatio(parseRgb(icon), parseRgb(fill)), 'the icon on the disc').toBeGreaterThanOrEqual(4.5);
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          for (const top of [0, height]) {
            await scrollWindowTo(page, top);
            // Where it docks at the end of the page (narrow screens) it is out of sight at the top.
            if (!(await inViewport(page, toggle))) continue;
            const behind = await backdropColour(page, toggle);
            // WCAG 1.4.11: the disc or its ring differs from its surroundings by at least 3:1.
            const ratio = Math.max(contrastRatio(parseRgb(fill), behind), contrastRatio(parseRgb(ring), behind));
            const where = `${path} at ${top === 0 ? 'the top' : 'the bottom'}`;
            found.push(`${where}: ${ratio.toFixed(2)}:1 on rgb(${behind.join(', ')})`);
            expect(ratio, `${where}: ${fill} ringed ${ring} on rgb(${behind.join(', ')})`).toBeGreaterThanOrEqual(3);
          }
        }
        expect(found.length, 'measured on every page').toBeGreaterThanOrEqual(PAGES.length);
        test.info().annotations.push({ type: 'contrast', description: found.join('; ') });
        await keepScreenshot(toggle, shotPath('toggle', viewport.width, theme));
        await context.close();
      });
    }
  }
});

test.describe('4. contact page margins', () => {
  test('at 390 px the contact cards keep the 20 px side margin of the other pages', async ({ browser }) => {
    const { context, page } = await openPage(browser, PHONE);
    await gotoPage(page, '/contact');
    const cards = page.getByRole('main').locator('.card');
    // The form, the way to a quote, e-mail, address and hours.
    await expect(cards).toHaveCount(5);
    for (let i = 0; i < 5; i++) {
      const box = (await cards.nth(i).boundingBox())!;
      expect(box.x, `card ${i} left margin`).toBeCloseTo(20, 0);
      expect(PHONE.width - (box.x + box.width), `card ${i} right margin`).toBeCloseTo(20, 0);
    }
    // The same margin as a card on another page.
    await gotoPage(page, '/about');
    const other = (await page.getByRole('main').locator('.card').first().boundingBox())!;
    expect(other.x).toBeCloseTo(20, 0);
    await gotoPage(page, '/contact');
    await keepScreenshot(page, shotPath('contact', PHONE.width), { fullPage: true });
    await context.close();
  });
});

test.describe('5. closing call to action and service lists', () => {
  for (const viewport of WIDTHS) {
    test(`the call to action meets the footer on Home, About and Services at ${viewport.width} px`, async ({ browser }) => {
      const { context, page } = await openPage(browser, viewport);
      for (const path of ['/', '/about', '/services']) {
        await gotoPage(page, path);
        const cta = (await page.locator('main > .cta').last().boundingBox())!;
        const footer = (await page.getByRole('contentinfo').boundingBox())!;
        expect(footer.y - (cta.y + cta.height), `${path}: gap between the call to action and the footer`).toBeCloseTo(0, 0);
      }
      await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
      await keepScreenshot(page, shotPath('services-cta-footer', viewport.width));
      await context.close();
    });
  }

  test('at 1280 px the four service cards start their bullet lists at the same height', async ({ browser }) => {
    const { context, page } = await openPage(browser, DESKTOP);
    await gotoPage(page, '/services');
    const lists = page.locator('.only-large .offering-features');
    await expect(lists).toHaveCount(4);
    const tops = await lists.evaluateAll((uls) => uls.map((ul) => Math.round(ul.getBoundingClientRect().top)));
    const firstItems = await lists.evaluateAll((uls) => uls.map((ul) => Math.round(ul.firstElementChild!.getBoundingClientRect().top)));
    expect(new Set(tops).size, `list tops ${tops.join(', ')}`).toBe(1);
    expect(new Set(firstItems).size, `first items ${firstItems.join(', ')}`).toBe(1);
    // The four cards sit side by side in one row.
    const cardTops = await page.locator('.only-large .offering-card').evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
    expect(new Set(cardTops).size).toBe(1);
    await keepScreenshot(page.locator('ul.only-large', { has: page.locator('.offering-card') }), shotPath('services-cards', DESKTOP.width));
    await context.close();
  });
});

test.describe('6. admin login without a network', () => {
  for (const viewport of WIDTHS) {
    test(`says "Network error. Please check your connection" at ${viewport.width} px`, async ({ browser }) => {
      const { context, page } = await openPage(browser, viewport);
      await gotoPage(page, LOGIN_PATH);
      await page.route(`**${SESSION_SERVICE_PATH}**`, (route) => route.abort('internetdisconnected'));
      await page.getByLabel('Email', { exact: true }).fill('admin@example.com');
      await page.getByLabel('Password', { exact: true }).fill('whatever-it-is');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await expect(loginError(page)).toHaveText('Network error. Please check your connection');
      await expect(toastWithText(page, 'Network error. Please check your connection')).toBeVisible();
      await expect(page.getByText('An error occurred during login.')).toHaveCount(0);
      await keepScreenshot(page, shotPath('login-network-error', viewport.width));
      await context.close();
    });
  }
});
