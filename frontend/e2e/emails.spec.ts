import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { expect, test, type Locator } from '@playwright/test';
import { NotificationState } from '../src/gen/logistics/v1/notification_pb';
import { LOGIN_PATH, LOGIN_SUCCESS, adminEmail, adminPassword, signIn, submitLogin } from './support/admin';
import { startGateway, type RunningGateway } from './support/gateway';
import { adminRpc, listEmails } from './support/rpc';
import { toastWithText } from './support/track-page';
import { createShipment } from './support/tracking';
import { contrastRatio, parseRgb, keepScreenshot } from './support/visual';
import { LAYOUT } from './support/env';
import { waitForHydration } from './support/hydrated';

const NOTIFICATION_SERVICE_PATH = '/logistics.v1.NotificationService/';
const RUN = Date.now().toString(36).slice(-6);

test.describe('contact form', () => {
  test('sends a message, busy while sending, then clears the form', async ({ page }) => {
    await page.goto('/contact');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Send Us a Message' });
    await expect(form.getByLabel('Message')).toHaveAttribute('rows', '4');
    await expect(form.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByText('Mon-Fri 9:00 AM-6:00 PM').first()).toBeVisible();
    await form.getByLabel('Name').fill(`Vee ${RUN}`);
    await form.getByLabel('Email').fill('vee@example.com');
    await form.getByLabel('Subject').fill('Rates to Lagos');
    await form.getByLabel('Message').fill('How much for two pallets?');

    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    await page.route(`**${NOTIFICATION_SERVICE_PATH}SendContactMessage`, async (route) => {
      await released;
      await route.continue();
    });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    release();
    await expect(toastWithText(page, 'Message sent successfully!')).toBeVisible();
    await expect(form.getByLabel('Name')).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  test('a failed send says so and keeps what was typed', async ({ page }) => {
    await page.goto('/contact');
    await waitForHydration(page);
    await page.route(`**${NOTIFICATION_SERVICE_PATH}SendContactMessage`, (route) => route.abort('connectionrefused'));
    const form = page.getByRole('form', { name: 'Send Us a Message' });
    await form.getByLabel('Name').fill('Vee');
    await form.getByLabel('Email').fill('vee@example.com');
    await form.getByLabel('Subject').fill('Hello');
    await form.getByLabel('Message').fill('Are you there?');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(toastWithText(page, 'Failed to send message. Please try again.')).toBeVisible();
    await expect(form.getByLabel('Message')).toHaveValue('Are you there?');
  });

  test('the message reaches the admin outbox and its content is dropped once delivered', async ({ page }) => {
    await page.goto('/contact');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Send Us a Message' });
    const subject = `Outbox check ${RUN}`;
    await form.getByLabel('Name').fill('Wanda');
    await form.getByLabel('Email').fill('wanda@example.com');
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('Please call me back.');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(toastWithText(page, 'Message sent successfully!')).toBeVisible();

    await signIn(page);
    await page.goto('/administration_and_development/emails');
    const item = page.getByRole('list', { name: 'Emails' }).getByRole('listitem').filter({ hasText: subject });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(item.locator('.status-pill')).toHaveText('Sent', { timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(item).toContainText('Company inbox');
    await expect(item).toContainText('Content removed after delivery.');
  });
});

test.describe('admin e-mail test', () => {
  test('sends a sample shipper and receiver e-mail to the signed-in admin', async ({ page }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Run email test' }).click();
    await expect(toastWithText(page, 'Test emails sent successfully!')).toBeVisible();
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Emails' }).click();
    const samples = page.getByRole('list', { name: 'Emails' }).getByRole('listitem').filter({ hasText: 'PSE000000000' });
    await expect(samples.filter({ hasText: 'Shipment Created' }).first()).toContainText(`Test Shipper <${adminEmail()}>`);
    await expect(samples.filter({ hasText: 'Package Incoming' }).first()).toContainText(`Test Receiver <${adminEmail()}>`);
    const receiver = samples.filter({ hasText: 'Package Incoming' }).first();
    // The local outbox shows the e-mail as the product writes it for SMTP.
    await receiver.getByText('Message', { exact: true }).click();
    await expect(receiver.locator('.email-body')).toContainText('A package is on its way to you: PSE000000000.');
    await expect(receiver.locator('.email-body')).toContainText('Questions? support@parcelshippingexpress.com');
    await receiver.getByText('Content').click();
    const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await expect(receiver.locator('.detail-row').filter({ hasText: 'expected_delivery_date' })).toContainText(inAWeek);
  });

  test('a refused test says so', async ({ page }) => {
    await signIn(page);
    await page.route(`**${NOTIFICATION_SERVICE_PATH}SendTestEmails`, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Run email test' }).click();
    await expect(toastWithText(page, 'Failed to send test emails.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run email test' })).toBeEnabled();
  });
});

test.describe('when the e-mail API is down', () => {
  let gateway: RunningGateway;

  test.beforeAll(async () => {
    // Nothing listens on port 9, and e-mails are not retried: each fails at its first attempt.
    gateway = await startGateway({
      ADMIN_EMAIL: adminEmail(),
      ADMIN_PASSWORD: adminPassword(),
      MAIL_TRANSPORT: 'emailjs',
      EMAILJS_BASE_URL: 'http://127.0.0.1:9',
      EMAILJS_PUBLIC_KEY: 'pk',
      EMAILJS_SERVICE_ID: 'svc',
      EMAILJS_SHIPPER_TEMPLATE_ID: 'tpl-shipper',
      EMAILJS_RECEIVER_TEMPLATE_ID: 'tpl-receiver',
      CONTACT_EMAILJS_PUBLIC_KEY: 'pk',
      CONTACT_EMAILJS_SERVICE_ID: 'svc',
      CONTACT_EMAILJS_TEMPLATE_ID: 'tpl-contact',
      NOTIFY_RETRY_FOR_SECS: '0',
    });
  });

  test.afterAll(async () => {
    await gateway?.stop();
  });

  test('failed e-mails are found by state and number, and all of them are retried at once', async ({ page, request }) => {
    const admin = await adminRpc(request, gateway.url);
    const shipment = await createShipment(admin, RUN);
    // How many of its e-mails have failed since `since` (ms).
    const failed = async (since = 0) =>
      (await listEmails(admin)).filter(
        (e) =>
          e.trackingNumber === shipment.trackingNumber &&
          e.state === NotificationState.FAILED &&
          e.updateTime !== undefined &&
          timestampMs(e.updateTime) >= since,
      ).length;
    await expect.poll(() => failed(), { timeout: 10_000 }).toBe(2);

    await page.goto(`${gateway.url}${LOGIN_PATH}`);
    await submitLogin(page, adminEmail(), adminPassword());
    await expect(toastWithText(page, LOGIN_SUCCESS)).toBeVisible();
    await page.goto(`${gateway.url}/administration_and_development/emails`);
    const filters = page.getByRole('form', { name: 'Filter the emails' });
    await filters.getByLabel('State').selectOption('failed');
    await filters.getByLabel('Recipient or tracking number').fill(shipment.trackingNumber.toLowerCase());
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(new RegExp(`state=failed&q=${shipment.trackingNumber.toLowerCase()}$`));
    const items = page.getByRole('list', { name: 'Emails' }).getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText('0 Network Error');
    await expect(items.first()).toContainText('(gave up after 1 attempt in 0 seconds)');

    const retriedAt = Date.now() - 1000;
    await page.getByRole('button', { name: 'Retry all failed' }).click();
    // The product's own question, not the browser's.
    await page.getByRole('alertdialog', { name: 'Retry all failed emails?' }).getByRole('button', { name: 'Retry all' }).click();
    await expect(toastWithText(page, '2 emails queued again')).toBeVisible();
    // Still down: both fail again, each after one fresh attempt. The filters survive a reload.
    await expect.poll(() => failed(retriedAt), { timeout: 10_000 }).toBe(2);
    await page.reload();
    await expect(filters.getByLabel('State')).toHaveValue('failed');
    await expect(items).toHaveCount(2);

    await filters.getByLabel('State').selectOption('sent');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('No emails match these filters.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retry all failed' })).toHaveCount(0);
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/emails$/);
    await expect(filters.getByLabel('State')).toHaveValue('');
  });
});

test.describe('stored theme', () => {
  test("a signed-in admin's theme is saved for them and follows them to another browser", async ({ browser }) => {
    const first = await browser.newContext({ colorScheme: 'light' });
    const page = await first.newPage();
    // The back office (a chunk of its own) saves the choices once it has read the stored one: a
    // click before that only changes this browser's theme.
    const read = page.waitForResponse((r) => r.url().includes('/logistics.v1.PreferenceService/GetPreferences'));
    await signIn(page);
    await read;
    const html = page.locator('html');
    await expect(html).not.toHaveClass(/\bdark\b/);
    const saved = page.waitForResponse((r) => r.url().includes('/logistics.v1.PreferenceService/UpdatePreferences'));
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    expect((await saved).ok()).toBe(true);
    await first.close();

    // Another browser: nothing stored locally, a light system theme; signing in brings dark back.
    const second = await browser.newContext({ colorScheme: 'light' });
    const elsewhere = await second.newPage();
    await signIn(elsewhere);
    await expect(elsewhere.locator('html')).toHaveClass(/\bdark\b/);
    // Back to light for the other tests' admin.
    const restored = elsewhere.waitForResponse((r) => r.url().includes('/logistics.v1.PreferenceService/UpdatePreferences'));
    await elsewhere.getByRole('button', { name: 'Switch to light mode' }).click();
    await restored;
    await second.close();
  });
});

test.describe('e-mail layout', { tag: LAYOUT }, () => {
  // Every e-mail the product writes, in each language, as `gateway email-previews` renders it.
  const previews = mkdtempSync(join(tmpdir(), 'pse-email-previews-'));
  execFileSync(process.env.GATEWAY_BIN!, ['email-previews', '--out', previews], {
    env: { PATH: process.env.PATH, DATA_DIR: join(previews, 'data') },
  });
  const names = readdirSync(previews)
    .filter((file) => file.endsWith('.html'))
    .map((file) => file.replace(/\.html$/, ''));
  const shots = process.env.SHOTS_DIR ?? join(import.meta.dirname, '..', 'test-results', 'screenshots', 'emails');

  test('every template is rendered in every language', () => {
    for (const template of ['shipper', 'receiver', 'status_update', 'subscription_confirmation', 'customer_invitation', 'pickup_confirmed', 'account_request_declined']) {
      for (const language of ['en', 'es', 'fr', 'ar']) expect(names).toContain(`${template}-${language}`);
    }
    expect(names).toEqual(expect.arrayContaining(['contact-en', 'alert-en', 'receiver-en-legacy-link']));
  });

  for (const width of [390, 800]) {
    test(`no e-mail is wider than a ${width} px window, and each has its preheader`, async ({ page }) => {
      mkdirSync(shots, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      for (const name of names) {
        await page.setContent(readFileSync(join(previews, `${name}.html`), 'utf8'));
        const sizes = await page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, inner: window.innerWidth }));
        expect(sizes.scroll, `${name} at ${width} px`).toBeLessThanOrEqual(sizes.inner);
        // The inbox's preview line: hidden, and saying something.
        const preheader = page.locator('body > div').first();
        await expect(preheader, name).toBeHidden();
        expect((await preheader.textContent())?.trim().length ?? 0, name).toBeGreaterThan(5);
        await keepScreenshot(page, join(shots, `${name}-${width}.png`), { fullPage: true });
      }
    });
  }

  test('a status update names the status, its time zone, the expected date and the progress steps', async ({ page }) => {
    for (const [language, status, step, when, expected] of [
      ['en', 'In Transit', 'Out for delivery', /UTC$/, 'Expected delivery'],
      ['ar', 'قيد النقل', 'خرجت للتسليم', /UTC$/, 'التسليم المتوقع'],
    ] as const) {
      await page.setContent(readFileSync(join(previews, `status_update-${language}.html`), 'utf8'));
      await expect(page.locator('h1')).toHaveText(status);
      const steps = page.locator('table[style*="table-layout:fixed"] td');
      await expect(steps).toHaveCount(5);
      await expect(steps.nth(3)).toHaveText(step);
      await expect(steps.nth(3).locator('div').last()).toHaveCSS('font-weight', '700');
      // Status, Where, When, Expected delivery: the rows of the table of facts.
      const rows = page.locator('tr:has(> th)');
      await expect(rows.nth(2).locator('td')).toHaveText(when);
      await expect(rows.nth(3).locator('th')).toHaveText(expected);
      const text = readFileSync(join(previews, `status_update-${language}.txt`), 'utf8');
      expect(text).not.toContain('in_transit');
      expect(text).toContain('UTC');
    }
    // The shipper's e-mail reads the status as a label, not as the stored value.
    await page.setContent(readFileSync(join(previews, 'shipper-en.html'), 'utf8'));
    await expect(page.locator('tr:has(> th)').first().locator('td')).toHaveText('Pending');
  });

  test('in an Arabic e-mail the written-out link, the tracking number, the e-mail address and the packages read in their order, at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 900 });
    const arabic = names.filter((name) => /-ar(-|$)/.test(name));
    expect(arabic.length).toBeGreaterThanOrEqual(5);
    for (const name of arabic) {
      await page.setContent(readFileSync(join(previews, `${name}.html`), 'utf8'));
      // A pickup's confirmation and a declined request carry no link; the others one.
      const linked = !/^(pickup_confirmed|account_request_declined)-/.test(name);
      const link = page.locator('a').filter({ hasText: /^https?:\/\// });
      await expect(link, name).toHaveCount(linked ? 1 : 0);
      if (linked) await expect(link, name).toHaveAttribute('href', (await link.textContent())!);
      // A shipment's e-mail names its number; the customer and account e-mails name no shipment.
      const shipment = !/^(customer_invitation|pickup_confirmed|account_request_declined)-/.test(name);
      const number = shipment ? [page.locator('strong').filter({ hasText: /^PSE\d+$/ })] : [];
      // A pickup's window says "from … to …" in Arabic: no dash between two times to flip around.
      if (name.startsWith('pickup_confirmed-')) {
        await expect(page.locator('td > span[dir="auto"]').filter({ hasText: /^من \d\d:\d\d إلى \d\d:\d\d$/ }), name).toHaveCount(1);
      }
      const values = [...(linked ? [link] : []), ...number, page.locator('a[href^="mailto:"]')];
      for (const value of values) {
        await expect(value, name).toHaveCount(1);
        // Isolated, left to right: the characters as drawn, line by line and left to right,
        // spell the value as written.
        expect(await value.evaluate((el) => getComputedStyle(el.querySelector('[dir="ltr"]') ?? el).direction), name).toBe('ltr');
        expect(await drawnText(value), name).toBe((await value.textContent())!.replace(/\s+/g, ''));
      }
      // The packages ("1 x Box - Documents (30 x 20 x 10 cm, 2 kg)") keep their order too.
      if (name.startsWith('shipper-')) {
        const packages = page.locator('div[style*="pre-line"] > span');
        expect(await drawnText(packages), name).toBe((await packages.textContent())!.replace(/\s+/g, ''));
      }
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth), `${name} at 390 px`).toBeLessThanOrEqual(390);
    }
  });

  test('in dark mode the text stays readable on the card', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 390, height: 900 } });
    const page = await context.newPage();
    for (const name of ['shipper-en', 'status_update-ar', 'subscription_confirmation-fr']) {
      await page.setContent(readFileSync(join(previews, `${name}.html`), 'utf8'));
      const card = parseRgb(await page.locator('table.card').evaluate((el) => getComputedStyle(el).backgroundColor));
      for (const text of [page.locator('h1'), page.locator('table.card p').first(), page.locator('td.muted')]) {
        const colour = parseRgb(await text.evaluate((el) => getComputedStyle(el).color));
        expect(contrastRatio(colour, card), name).toBeGreaterThanOrEqual(4.5);
      }
      // A dark card: the e-mail follows the reader's dark theme rather than glaring white.
      expect(contrastRatio(card, [255, 255, 255]), name).toBeGreaterThan(4.5);
      await keepScreenshot(page, join(shots, `${name}-dark-390.png`), { fullPage: true });
    }
    await context.close();
  });
});

/** The text of `value` as the browser drew it: its characters sorted into lines (top to bottom)
 * and, within a line, left to right. A value that reads left to right gives back its own text. */
async function drawnText(value: Locator): Promise<string> {
  return value.evaluate((el) => {
    const chars: Array<{ ch: string; top: number; left: number }> = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect && rect.width > 0 && node.textContent![i].trim()) chars.push({ ch: node.textContent![i], top: rect.top, left: rect.left });
      }
    }
    chars.sort((a, b) => (Math.abs(a.top - b.top) > 4 ? a.top - b.top : a.left - b.left));
    return chars.map((c) => c.ch).join('');
  });
}
