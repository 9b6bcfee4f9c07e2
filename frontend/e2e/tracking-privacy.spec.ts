// Privacy by default on the tracking page, proving one is a party, the links of the shipment's
// e-mails, subscriptions by e-mail, and the parts of the result a receiver reads (progress,
// ETA, history by day, map, print), at phone and desktop widths: what is laid out at both, each
// flow that no width changes at one of them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { ShipmentStatus, TrackingEvent, type Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { signIn } from './support/admin';
import { demoShipmentWithStatus } from './support/demo';
import { flowAt, siteUrl, staticDir } from './support/env';
import { adminRpc, rpc, type Clients } from './support/rpc';
import { formatClock, formatDateParts, formatIsoDate } from '../src/utils/format';
import { definition, toastWithText } from './support/track-page';
import {
  CONFIRMED,
  NO_MATCH,
  SUBSCRIBE_SENT,
  VERIFY_BUTTON,
  VERIFY_LABEL,
  createShipment,
  expectFullView,
  expectLimitedView,
  moveShipment,
  partiesFor,
  privateTexts,
  result,
  dayFromToday,
  sitePath,
  waitForEmail,
} from './support/tracking';
import { keepScreenshot } from './support/visual';
import { waitForHydration } from './support/hydrated';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const RUN = Date.now().toString(36).slice(-6);
let serial = 0;
/** A marker unique to one test, put in its shipment's texts. */
function tag(): string {
  serial += 1;
  return `${RUN}${serial}`;
}

let admin: Clients;
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: siteUrl() });
  admin = await adminRpc(request, siteUrl());
});

async function verify(page: Page, answer: string): Promise<void> {
  await result(page).getByRole('textbox', { name: VERIFY_LABEL }).fill(answer);
  await result(page).getByRole('button', { name: VERIFY_BUTTON }).click();
}

/** Everything this browser keeps in its storage, as one string. */
async function storedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [document.cookie];
    for (let i = 0; i < localStorage.length; i += 1) parts.push(localStorage.getItem(localStorage.key(i)!) ?? '');
    for (let i = 0; i < sessionStorage.length; i += 1) parts.push(sessionStorage.getItem(sessionStorage.key(i)!) ?? '');
    return parts.join('\n');
  });
}

for (const viewport of VIEWPORTS) {
  test.describe(`tracking privacy (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a public lookup shows the limited view, and the offline copy keeps only that', async ({ page }) => {
      const run = tag();
      const shipment = await createShipment(admin, run);
      await page.goto(`/track/${shipment.trackingNumber}`);
      await expectLimitedView(page, shipment, run);
      const details = result(page).getByRole('region', { name: 'Shipment Details' });
      await expect(details).toContainText('TAP Air Cargo');
      await expect(details).toContainText('Air Shipping');
      const stored = await storedText(page);
      expect(stored).toContain(shipment.trackingNumber);
      for (const text of privateTexts(run)) expect(stored, text).not.toContain(text);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });

    test("a wrong answer is refused at the field with the server's message", async ({ page }) => {
      flowAt(page, 1280);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await page.goto(`/track/${shipment.trackingNumber}`);
      const input = result(page).getByRole('textbox', { name: VERIFY_LABEL });
      await verify(page, `someone.else.${run}@example.com`);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(NO_MATCH);
      await verify(page, '0000');
      await expect(input).toHaveAccessibleDescription(NO_MATCH);
      // A malformed answer gets the server's own sentence, at the same place.
      await verify(page, 'not an answer');
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#verify-answer-error')).not.toBeEmpty();
      await expectLimitedView(page, shipment, run);
    });

    test('too many attempts for one shipment are refused at the field, even with the right answer', async ({ page }) => {
      flowAt(page, 390);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await page.goto(`/track/${shipment.trackingNumber}`);
      const input = result(page).getByRole('textbox', { name: VERIFY_LABEL });
      // TRACKING_VERIFY_ATTEMPTS_PER_HOUR (10) for this shipment, from everyone together.
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        await verify(page, `guess.${attempt}.${run}@example.com`);
        await expect(input, `attempt ${attempt}`).toHaveAccessibleDescription(NO_MATCH);
        await expect(result(page).getByRole('button', { name: VERIFY_BUTTON })).toBeEnabled();
      }
      await verify(page, partiesFor(run).receiver.email);
      // The refusal waits out the service's constant-time answer; on a busy 2-core machine more.
      await expect(input).toHaveAccessibleDescription(/^Too many attempts/, { timeout: 15_000 });
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expectLimitedView(page, shipment, run);
    });

    test('a forged or expired e-mail link says so and shows the limited view', async ({ page }) => {
      flowAt(page, 390);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await page.goto(`/track/${shipment.trackingNumber}?access=forged.link.token`);
      await expect(page.getByTestId('track-link-refused')).toContainText('This link has expired or is not valid.');
      await expectLimitedView(page, shipment, run);
      await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
    });

    test("the receiver's e-mail shows the full view, remembered in this browser only", async ({ page, browser }) => {
      flowAt(page, 1280);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await page.goto(`/track/${shipment.trackingNumber}`);
      await verify(page, `  ${partiesFor(run).receiver.email.toUpperCase()} `);
      await expect(page.getByRole('status').filter({ hasText: 'The full details of this shipment are shown below.' })).toBeFocused();
      await expectFullView(page, run);

      // The grant is an HttpOnly cookie: nothing a script can read unlocks the details.
      const stored = await storedText(page);
      for (const text of privateTexts(run)) expect(stored, text).not.toContain(text);
      const cookies = await page.context().cookies();
      expect(cookies.length).toBeGreaterThan(0);
      for (const cookie of cookies) expect(cookie.httpOnly, cookie.name).toBe(true);

      await page.reload();
      await expectFullView(page, run);

      const stranger = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height } });
      await stranger.goto(`/track/${shipment.trackingNumber}`);
      await expectLimitedView(stranger, shipment, run);
      await stranger.close();
    });

    test("the last 4 digits of the shipper's phone show the full view", async ({ page }) => {
      flowAt(page, 390);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await page.goto(`/track/${shipment.trackingNumber}`);
      await verify(page, partiesFor(run).shipper.phone.slice(-4));
      await expectFullView(page, run);
    });

    test('signed-in staff always see the full view', async ({ page, baseURL }) => {
      flowAt(page, 1280);
      const run = tag();
      const shipment = await createShipment(admin, run);
      await adminRpc(page.context().request, baseURL!);
      await page.goto(`/track/${shipment.trackingNumber}`);
      await expectFullView(page, run);
    });

    test("the link in the shipment's e-mail opens the full view and leaves no token in the address", async ({ page }) => {
      flowAt(page, 390);
      const run = tag();
      const shipment = await createShipment(admin, run);
      const email = await waitForEmail(
        admin,
        (e) => e.trackingNumber === shipment.trackingNumber && e.toEmail === partiesFor(run).receiver.email,
        "the receiver's e-mail",
      );
      const link = email.templateParams.tracking_url;
      expect(link).toContain(`/track/${shipment.trackingNumber}?access=`);
      await page.goto(sitePath(link));
      await expectFullView(page, run);
      await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
      await page.reload();
      await expectFullView(page, run);
    });

    test('subscribe, confirm, get an update, unsubscribe in one click', async ({ page }) => {
      flowAt(page, 1280);
      const run = tag();
      await admin.shipments.updateTrackingEmailSettings({
        settings: { rules: [{ event: TrackingEvent.IN_TRANSIT, shipper: false, receiver: true, subscribers: true }] },
      });
      const shipment = await createShipment(admin, run);
      const follower = `follower.${run}@example.com`;

      await page.goto(`/track/${shipment.trackingNumber}`);
      const form = result(page).getByRole('region', { name: 'Get Updates by E-mail' });
      await form.getByRole('textbox', { name: 'Your e-mail address' }).fill(follower);
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect(form.getByRole('status')).toHaveText(SUBSCRIBE_SENT);

      const confirmation = await waitForEmail(admin, (e) => e.toEmail === follower && !!e.templateParams.confirm_url, 'the confirmation');
      expect(confirmation.templateParams.confirm_url).toContain(`/track/${shipment.trackingNumber}?confirm=`);
      await page.goto(sitePath(confirmation.templateParams.confirm_url));
      await expect(page.getByTestId('subscription-link-outcome')).toHaveText(CONFIRMED);
      await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
      await expect(result(page).getByRole('heading', { level: 2, name: shipment.trackingNumber })).toBeVisible();

      await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Madrid, Spain', 'Departed the hub');
      const update = await waitForEmail(
        admin,
        (e) => e.toEmail === follower && e.id !== confirmation.id && !!e.templateParams.unsubscribe_url,
        'the update',
      );
      expect(update.trackingNumber).toBe(shipment.trackingNumber);
      // Nothing in a follower's e-mail unlocks the full view.
      expect(update.templateParams.tracking_url ?? '').not.toContain('access=');

      await page.goto(sitePath(update.templateParams.unsubscribe_url));
      await expect(page.getByTestId('subscription-link-outcome')).toHaveText(
        `You will no longer get updates for ${shipment.trackingNumber}.`,
      );
      await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
      await expect(result(page).getByRole('heading', { level: 2, name: shipment.trackingNumber })).toBeVisible();
      await expect(result(page)).toContainText('Madrid');
    });

    test('a forged confirmation link says so', async ({ page }) => {
      flowAt(page, 390);
      const shipment = demoShipmentWithStatus('in_transit');
      await page.goto(`/track/${shipment.trackingNumber}?confirm=forged-token`);
      const outcome = page.getByTestId('subscription-link-outcome');
      await expect(outcome).toHaveAttribute('role', 'alert');
      await expect(outcome).not.toBeEmpty();
      await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
    });

    test('progress: an ordered list with the current step named, delays and holds on their step', async ({ page }) => {
      flowAt(page, 390);
      const { IN_TRANSIT, DELAYED, ON_HOLD, DELIVERED } = ShipmentStatus;
      const cases: Array<[string, Array<[ShipmentStatus, string]>, string, string[]]> = [
        ['new', [], 'Created', []],
        ['on its way', [[IN_TRANSIT, 'Madrid, Spain']], 'In transit', []],
        ['held before leaving', [[ON_HOLD, 'Lisbon, Portugal']], 'Picked up', ['On hold']],
        ['delayed on the way', [[IN_TRANSIT, 'Madrid, Spain'], [DELAYED, 'Paris, France']], 'In transit', ['Delayed']],
        // A street address in the destination's city is out for delivery (the limited view shows
        // "Amsterdam, Netherlands").
        ['in the destination city', [[IN_TRANSIT, 'Madrid, Spain'], [IN_TRANSIT, 'Keizersgracht 1, Amsterdam, Netherlands']], 'Out for delivery', []],
        ['delivered', [[IN_TRANSIT, 'Madrid, Spain'], [DELIVERED, 'Amsterdam, Netherlands']], 'Delivered', []],
      ];
      for (const [name, journey, current, markers] of cases) {
        let shipment = await createShipment(admin, tag());
        for (const [status, place] of journey) shipment = await moveShipment(admin, shipment, status, place);
        await page.goto(`/track/${shipment.trackingNumber}`);
        const progress = result(page).getByRole('region', { name: 'Progress' });
        const steps = progress.getByRole('list').getByRole('listitem');
        await expect(steps).toHaveCount(5);
        await expect(steps.locator('.progress-name')).toHaveText(['Created', 'Picked up', 'In transit', 'Out for delivery', 'Delivered']);
        const now = progress.locator('[aria-current="step"]');
        await expect(now, name).toHaveCount(1);
        await expect(now.locator('.progress-name'), name).toHaveText(current);
        await expect(now, name).toContainText('Current step');
        // Steps before the current one say so in words, not only in colour.
        const index = ['Created', 'Picked up', 'In transit', 'Out for delivery', 'Delivered'].indexOf(current);
        for (let i = 0; i < index; i += 1) await expect(steps.nth(i), name).toContainText('completed');
        await expect(progress.locator('.progress-marker'), name).toHaveCount(markers.length);
        for (const marker of markers) await expect(progress, name).toContainText(marker);
      }
    });

    test('expected delivery: on time, today, late by N days, delivered', async ({ page }) => {
      flowAt(page, 1280);
      const cases: Array<[number, boolean, string]> = [
        [4, false, 'on time'],
        [0, false, 'today'],
        [-1, false, 'late by 1 day'],
        [-6, false, 'late by 6 days'],
        [-6, true, 'delivered'],
      ];
      for (const [days, delivered, text] of cases) {
        const shipment = await createShipment(admin, tag(), { expectedDeliveryDate: dayFromToday(days) });
        if (delivered) await moveShipment(admin, shipment, ShipmentStatus.DELIVERED, 'Amsterdam, Netherlands');
        await page.goto(`/track/${shipment.trackingNumber}`);
        const expected = definition(result(page).locator('.result-summary'), 'Expected Delivery');
        await expect(expected.getByTestId('eta'), text).toHaveText(text);
        const { year, month, day } = dayFromToday(days);
        await expect(expected, text).toContainText(formatDateParts(year, month, day));
      }
    });

    test('history: grouped by day, newest first, each entry with its time, place and remarks, in one column', async ({ page }) => {
      const hour = 3_600_000;
      const booked = new Date(Date.now() - 50 * hour);
      let shipment = await createShipment(admin, tag(), {}, booked);
      shipment = await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Madrid, Spain', 'Left the hub', new Date(booked.getTime() + hour));
      shipment = await moveShipment(admin, shipment, ShipmentStatus.DELAYED, 'Paris, France', 'Held by the weather', new Date(Date.now() - 26 * hour));
      shipment = await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Amsterdam, Netherlands', 'On the last leg');
      await page.goto(`/track/${shipment.trackingNumber}`);

      const entries = [...shipment.history].reverse();
      const days = [...new Set(entries.map((e) => e.localDate))];
      const history = result(page).getByRole('region', { name: 'Shipment History' });
      await expect(history.getByRole('heading', { level: 3 })).toHaveText(days.map(formatIsoDate));
      const events = history.getByTestId('history-event');
      await expect(events).toHaveCount(entries.length);
      for (const [i, entry] of entries.entries()) {
        await expect(events.nth(i)).toContainText(formatClock(entry.localTime));
        await expect(events.nth(i)).toContainText(entry.location);
        if (entry.remarks) await expect(events.nth(i)).toContainText(entry.remarks);
        // Under the heading of its own day.
        await expect(events.nth(i).locator('xpath=ancestor::li[1]').getByRole('heading')).toHaveText(formatIsoDate(entry.localDate));
      }
      const boxes = await events.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON() as DOMRect));
      for (let i = 1; i < boxes.length; i += 1) {
        expect(boxes[i].top).toBeGreaterThanOrEqual(boxes[i - 1].bottom - 1);
        expect(Math.abs(boxes[i].left - boxes[0].left)).toBeLessThan(2);
      }
    });

    test('the journey is drawn on a map for known places', async ({ page }) => {
      let shipment = await createShipment(admin, tag());
      shipment = await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Madrid, Spain');
      shipment = await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Amsterdam, Netherlands');
      await page.goto(`/track/${shipment.trackingNumber}`);
      const map = result(page).getByRole('region', { name: 'Journey Map' });
      await expect(map.getByRole('img', { name: /^Map of the shipment.s journey: Lisbon.* → Madrid.* → Amsterdam/ })).toBeVisible();
      await expect(map.locator('.journey-map-route')).toHaveCount(1);
    });

    test('print shows the result alone, black on white', async ({ browser }) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const page = await browser.newPage({ viewport: { width: viewport.width, height: viewport.height }, colorScheme });
        await page.goto(`/track/${demoShipmentWithStatus('delayed').trackingNumber}`);
        await expect(result(page).getByRole('region', { name: 'Progress' })).toBeVisible();
        await page.emulateMedia({ media: 'print' });
        await expect(page.getByRole('banner')).toBeHidden();
        await expect(page.getByRole('contentinfo')).toBeHidden();
        await expect(page.getByRole('button', { name: /Switch to (dark|light) mode/ })).toBeHidden();
        await expect(page.getByRole('search')).toBeHidden();
        await expect(page.getByRole('button', { name: VERIFY_BUTTON })).toBeHidden();
        await expect(page.getByRole('button', { name: 'Subscribe' })).toBeHidden();
        await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
        await expect(result(page).getByRole('heading', { level: 2, name: 'Shipment History' })).toBeVisible();
        const colours = await page.evaluate(() => {
          const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
          return {
            body: style('body').backgroundColor,
            card: style('.track-result .card').backgroundColor,
            text: style('.track-result .card').color,
          };
        });
        expect(colours, colorScheme).toEqual({ body: 'rgb(255, 255, 255)', card: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)' });
        await page.close();
      }
    });
  });
}

test.describe('admin Settings', () => {
  test('choose who gets an e-mail for each event, saved with a toast', async ({ page }) => {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/administration_and_development\/settings$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    // The e-mail rules' own form: the page has other sections (Pickups) with their own Save.
    const form = page.getByRole('form', { name: 'Tracking E-mails' });
    const rows = form.getByRole('table').locator('tbody tr');
    await expect(rows.locator('th')).toContainText(['Created', 'In Transit', 'Delayed', 'On Hold', 'Delivered']);
    await expect(form.getByRole('checkbox', { name: 'E-mail subscribers when created' })).toHaveCount(0);
    await expect(form.getByRole('checkbox')).toHaveCount(14);

    const box = form.getByRole('checkbox', { name: 'E-mail the receiver when on hold' });
    const before = await box.isChecked();
    await box.setChecked(!before);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(toastWithText(page, 'Settings saved successfully')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'E-mail the receiver when on hold' })).toBeChecked({ checked: !before });
    const saved = await admin.shipments.getTrackingEmailSettings({});
    expect(saved.rules.find((r) => r.event === TrackingEvent.ON_HOLD)?.receiver).toBe(!before);

    // Back as it was, with the keyboard alone.
    await page.getByRole('checkbox', { name: 'E-mail the receiver when on hold' }).focus();
    await page.keyboard.press('Space');
    await form.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await expect(toastWithText(page, 'Settings saved successfully').last()).toBeVisible();
    await expect.poll(async () => (await admin.shipments.getTrackingEmailSettings({})).rules.find((r) => r.event === TrackingEvent.ON_HOLD)?.receiver).toBe(before);
  });

  test('a visitor without a session never reaches it', async ({ page }) => {
    await page.goto('/administration_and_development/settings');
    await expect(page).toHaveURL(/\/administration_and_development\/login$/);
    const anonymous = rpc(page.context().request, page.url());
    await expect(anonymous.shipments.getTrackingEmailSettings({})).rejects.toThrow();
  });

  test("the View modal's history is one column at every width", async ({ page }) => {
    const shipment: Shipment = await createShipment(admin, tag());
    await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Madrid, Spain', 'Departed the hub');
    await moveShipment(admin, shipment, ShipmentStatus.DELAYED, 'Paris, France', 'Weather');
    await signIn(page);
    for (const width of [390, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByLabel('Search', { exact: true }).fill(shipment.trackingNumber);
      const row = page.locator(`tr[data-tracking-number="${shipment.trackingNumber}"]`);
      await row.getByRole('button', { name: `View shipment ${shipment.trackingNumber}` }).click();
      const view = page.getByRole('dialog', { name: `Shipment ${shipment.trackingNumber}` });
      const events = view.getByTestId('history-event');
      // On failure, say what the dialog showed: this has failed once in CI, never here.
      await expect(events)
        .toHaveCount(3)
        .catch(async (error: Error) => {
          throw new Error(`${error.message}\nat ${width}px the dialog read:\n${await view.innerText().catch(() => '(gone)')}`);
        });
      const boxes = await events.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON() as DOMRect));
      for (let i = 1; i < boxes.length; i += 1) {
        expect(boxes[i].top, `${width}px`).toBeGreaterThanOrEqual(boxes[i - 1].bottom - 1);
        expect(Math.abs(boxes[i].left - boxes[0].left), `${width}px`).toBeLessThan(2);
      }
      await page.keyboard.press('Escape');
      await expect(view).toBeHidden();
    }
  });
});

test("a Spanish e-mail's tracking link opens the page, and a subscription from it is in Spanish", async ({ page }) => {
  const run = tag();
  const shipment = await createShipment(admin, run);
  const follower = `seguidor.${run}@example.com`;

  // The page speaks Spanish: its words are the Spanish catalogue's.
  const es = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'src', 'locales', 'es', 'track.json'), 'utf8')) as Record<string, string>;
  await page.goto(`/es/track/${shipment.trackingNumber}`);
  await expect(result(page).getByRole('heading', { level: 2, name: shipment.trackingNumber })).toBeVisible();
  const form = result(page).getByRole('region', { name: es['track.subscribe.title'] });
  await form.getByRole('textbox', { name: es['track.subscribe.label'] }).fill(follower);
  await form.getByRole('button', { name: es['track.subscribe.submit'] }).click();
  await expect(form.getByRole('status')).toHaveText(es['track.subscribe.sent']);

  const confirmation = await waitForEmail(admin, (e) => e.toEmail === follower && !!e.templateParams.confirm_url, 'the confirmation');
  expect(confirmation.templateParams.language).toBe('es');
  expect(confirmation.templateParams.confirm_url).toContain(`/es/track/${shipment.trackingNumber}?confirm=`);
  await page.goto(sitePath(confirmation.templateParams.confirm_url));
  await expect(page.getByTestId('subscription-link-outcome')).toHaveText(es['track.link.confirmed']);
  await expect(page).toHaveURL(new RegExp(`/es/track/${shipment.trackingNumber}$`));
});

test('JavaScript of /track before and after a lookup (gzip)', async ({ page }) => {
  const loaded = new Set<string>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.endsWith('.js')) loaded.add(pathname);
  });
  await page.goto('/track');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Why Choose Our Tracking Service' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const intro = [...loaded];

  await page.getByRole('textbox', { name: 'Tracking number' }).fill(demoShipmentWithStatus('in_transit').trackingNumber);
  await page.getByRole('button', { name: 'Track', exact: true }).click();
  await expect(result(page).getByRole('img', { name: /^Map of the shipment/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const after = [...loaded];

  const gzipKb = (paths: string[]) =>
    paths.reduce((sum, path) => sum + gzipSync(readFileSync(join(staticDir(), path)), { level: 9 }).length, 0) / 1024;
  const sizes = {
    introKb: Number(gzipKb(intro).toFixed(1)),
    afterLookupKb: Number(gzipKb(after).toFixed(1)),
    introFiles: intro.length,
    afterLookupFiles: after.length,
  };
  console.log(`JS of /track (gzip -9): intro ${sizes.introKb} KB in ${intro.length} files, after a lookup ${sizes.afterLookupKb} KB in ${after.length} files`);
  mkdirSync(join(import.meta.dirname, '..', 'test-results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, '..', 'test-results', 'track-js-sizes.json'), JSON.stringify({ ...sizes, intro, after }, null, 2));
  // The intro never loads the Connect client, TanStack Query (the lookup's chunk) or the result's code.
  expect(intro.filter((path) => /\/(transport|track-lookup|TrackingResult|JourneyMap)-/.test(path))).toEqual([]);
  const withTanStack = (paths: string[]) =>
    paths.filter((path) => readFileSync(join(staticDir(), path), 'utf8').includes('No QueryClient set'));
  expect(withTanStack(intro)).toEqual([]);
  expect(withTanStack(after)).not.toEqual([]);
  // The entry carries the message runtime (Lingui's core, the language switcher) since the site
  // speaks four languages, and the router's table of every route (the portal's and the courier
  // app's among them, the bundler's dynamic-import helper a file of its own since the latter);
  // the page's messages are JSON, not counted here.
  expect(sizes.introKb).toBeLessThan(106);
});

test('screenshots of the tracking screens at 390 and 1280 px, light and dark', async ({ browser }) => {
  // Pictures for people to look at: taken on request; the other tests check these screens.
  test.skip(!process.env.E2E_SCREENSHOTS, 'screenshots are taken with E2E_SCREENSHOTS=1');
  test.setTimeout(180_000);
  const out = join(import.meta.dirname, '..', 'test-results', 'screenshots');
  mkdirSync(out, { recursive: true });

  // One follower's unsubscribe link: ending a subscription that has ended succeeds, so every
  // screenshot below can open it.
  const followed = await createShipment(admin, tag());
  await admin.shipments.subscribeToShipment({ trackingNumber: followed.trackingNumber, email: `shots.${RUN}@example.com` });
  const confirmation = await waitForEmail(admin, (e) => e.toEmail === `shots.${RUN}@example.com` && !!e.templateParams.confirm_url, 'confirmation');
  await admin.shipments.confirmShipmentSubscription({ token: new URL(confirmation.templateParams.confirm_url).searchParams.get('confirm')! });
  await moveShipment(admin, followed, ShipmentStatus.IN_TRANSIT, 'Madrid, Spain', 'Departed the hub');
  const update = await waitForEmail(
    admin,
    (e) => e.toEmail === `shots.${RUN}@example.com` && e.id !== confirmation.id && !!e.templateParams.unsubscribe_url,
    'update',
  );

  for (const width of [390, 1280]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const name = (screen: string) => join(out, `${screen}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`);
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const run = tag();
      const shipment = await createShipment(admin, run);
      await moveShipment(admin, shipment, ShipmentStatus.IN_TRANSIT, 'Madrid, Spain', 'Departed the hub');
      await moveShipment(admin, shipment, ShipmentStatus.DELAYED, 'Paris, France', 'Held by the weather');

      await page.goto(`/track/${shipment.trackingNumber}`);
      await expect(result(page).getByRole('img', { name: /^Map of the shipment/ })).toBeVisible();
      await keepScreenshot(page, name('tracking-limited'), { fullPage: true });

      await verify(page, `wrong.${run}@example.com`);
      await expect(page.locator('#verify-answer-error')).toBeVisible();
      await page.locator('#verify-answer').scrollIntoViewIfNeeded();
      await keepScreenshot(page, name('tracking-verify-error'));

      const form = result(page).getByRole('region', { name: 'Get Updates by E-mail' });
      await form.getByRole('textbox', { name: 'Your e-mail address' }).fill(`reader.${run}@example.com`);
      await form.getByRole('button', { name: 'Subscribe' }).click();
      await expect(form.getByRole('status')).toHaveText(SUBSCRIBE_SENT);
      await form.scrollIntoViewIfNeeded();
      await keepScreenshot(page, name('tracking-subscribe'));

      await verify(page, partiesFor(run).receiver.email);
      await expectFullView(page, run);
      await keepScreenshot(page, name('tracking-full'), { fullPage: true });

      await page.emulateMedia({ media: 'print' });
      await keepScreenshot(page, name('tracking-print'), { fullPage: true });
      await page.emulateMedia({ media: 'screen' });

      await page.goto(sitePath(update.templateParams.unsubscribe_url));
      await expect(page.getByTestId('subscription-link-outcome')).toBeVisible();
      await expect(result(page).getByRole('heading', { level: 2, name: followed.trackingNumber })).toBeVisible();
      await keepScreenshot(page, name('tracking-unsubscribed'), { fullPage: true });

      await adminRpc(context.request, siteUrl());
      await page.goto('/administration_and_development/settings');
      await expect(page.getByRole('checkbox', { name: 'E-mail the receiver when in transit' })).toBeVisible();
      await keepScreenshot(page, name('admin-settings'), { fullPage: true });

      await page.goto('/administration_and_development');
      await page.getByLabel('Search', { exact: true }).fill(shipment.trackingNumber);
      await page
        .locator(`tr[data-tracking-number="${shipment.trackingNumber}"]`)
        .getByRole('button', { name: `View shipment ${shipment.trackingNumber}` })
        .click();
      const view = page.getByRole('dialog', { name: `Shipment ${shipment.trackingNumber}` });
      await expect(view.getByTestId('history-event')).toHaveCount(3);
      await view.getByRole('heading', { name: 'Shipment History' }).scrollIntoViewIfNeeded();
      await keepScreenshot(page, name('admin-view-history'));
      await context.close();
    }
  }
});
