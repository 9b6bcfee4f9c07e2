// Ship with us: the page prerendered in every language, and the account request form: its own
// checks, the server's, the rate limit, and a request that reaches the staff's queue.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { AccountRequestState } from '../src/gen/logistics/v1/customer_pb';
import { siteUrl } from './support/env';
import { waitForHydration } from './support/hydrated';
import { adminRpc } from './support/rpc';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { visualLines } from './support/visual-lines';

const PAGES = [
  { code: 'en', dir: 'ltr', path: '/ship-with-us', heading: 'Ship with us', form: 'Request an account' },
  { code: 'es', dir: 'ltr', path: '/es/ship-with-us', heading: 'Envíe con nosotros', form: 'Solicitar una cuenta' },
  { code: 'fr', dir: 'ltr', path: '/fr/ship-with-us', heading: 'Expédiez avec nous', form: 'Demander un compte' },
  { code: 'ar', dir: 'rtl', path: '/ar/ship-with-us', heading: 'اشحن معنا', form: 'اطلب حسابًا' },
] as const;

const THANKS = 'Thank you. We will review your request and answer by e-mail within one business day.';
const RUN = Date.now().toString(36).slice(-6);

test('the page is prerendered in each language, with its heading, lang, dir and alternates', async ({ request }) => {
  for (const { code, dir, path, heading } of PAGES) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect(html, path).toContain(`<html lang="${code}" dir="${dir}" data-prerendered-route="${path}"`);
    expect(html, path).toContain(`<h1>${heading}</h1>`);
    expect(html, path).toContain(`<title>${heading} | Parcel Shipping Express</title>`);
    for (const other of PAGES) expect(html, path).toContain(`<link rel="alternate" hreflang="${other.code}" href="${other.path}">`);
  }
});

test('without JavaScript the page still explains the account and shows the form', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const { path, heading, form } of PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading);
    await expect(page.getByRole('form', { name: form }), path).toBeVisible();
  }
  await context.close();
});

test('the footer of every page links to it, in the page language', async ({ page }) => {
  await page.goto('/es/services');
  await waitForHydration(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Envíe con nosotros' }).click();
  await expect(page).toHaveURL(/\/es\/ship-with-us$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Envíe con nosotros');
});

async function openForm(page: Page, path = '/ship-with-us') {
  await page.goto(path);
  await waitForHydration(page);
  return page.getByRole('form', { name: PAGES.find((p) => p.path === path)!.form });
}

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the form names each empty required field and a bad e-mail, and sends nothing', async ({ page }) => {
      const sent: string[] = [];
      page.on('request', (r) => r.url().includes('CreateAccountRequest') && sent.push(r.url()));
      const form = await openForm(page);
      await page.getByRole('link', { name: 'Request an account' }).click();
      await expect(page).toHaveURL(/#request$/);
      await expect(form.getByLabel('Company name')).toBeInViewport();
      await form.getByRole('button', { name: 'Request an account' }).click();
      await expect(form.getByLabel('Company name')).toHaveAccessibleDescription("Please enter your company's name.");
      await expect(form.getByLabel('Contact name')).toHaveAccessibleDescription('Please enter the name of the person to contact.');
      await expect(form.getByLabel('E-mail')).toHaveAccessibleDescription('Please enter an e-mail address.');
      await expect(form.getByLabel('Company name')).toBeFocused();
      for (const optional of ['Phone (optional)', 'Address (optional)', 'What do you ship, and how often? (optional)']) {
        await expect(form.getByLabel(optional)).not.toHaveAttribute('aria-invalid', 'true');
      }
      await form.getByLabel('Company name').fill('Acme Imports');
      await form.getByLabel('Contact name').fill('Ana Díaz');
      await form.getByLabel('E-mail').fill('ana.acme.example');
      await form.getByRole('button', { name: 'Request an account' }).click();
      await expect(form.getByLabel('E-mail')).toHaveAccessibleDescription('Please enter a valid e-mail address.');
      await expect(form.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
      await expect(form.getByLabel('Company name')).not.toHaveAttribute('aria-invalid', 'true');
      expect(sent).toEqual([]);
      await keepScreenshot(page, join(SCREENSHOTS, `ship-with-us-errors-${width}.png`));
    });

    test("the server's field check lands on its field", async ({ page }) => {
      const form = await openForm(page);
      await form.getByLabel('Company name').fill('Acme Imports');
      await form.getByLabel('Contact name').fill('Ana Díaz');
      // The client lets it through; the server refuses the double dot.
      await form.getByLabel('E-mail').fill('ana@acme..example');
      await form.getByRole('button', { name: 'Request an account' }).click();
      await expect(form.getByLabel('E-mail')).toHaveAccessibleDescription('Invalid email address format');
      await expect(form.getByLabel('E-mail')).toBeFocused();
    });

    test("a rate-limited request shows the server's sentence and keeps what was typed", async ({ page }) => {
      const message = 'Too many requests from your network. Please try again later.';
      await page.route('**/logistics.v1.CustomerService/CreateAccountRequest', (route) =>
        route.fulfill({
          status: 200,
          headers: { 'content-type': 'application/grpc-web+proto', 'grpc-status': '8', 'grpc-message': encodeURIComponent(message) },
          body: '',
        }),
      );
      const form = await openForm(page);
      await form.getByLabel('Company name').fill('Acme Imports');
      await form.getByLabel('Contact name').fill('Ana Díaz');
      await form.getByLabel('E-mail').fill('ana@acme.example');
      await form.getByRole('button', { name: 'Request an account' }).click();
      await expect(form.getByRole('alert')).toHaveText(message);
      await expect(form.getByLabel('Company name')).toHaveValue('Acme Imports');
    });

    test('a valid request is thanked and reaches the account requests of the staff', async ({ page, request }) => {
      const email = `ops-${RUN}-${width}@acme.example`;
      const form = await openForm(page);
      await form.getByLabel('Company name').fill(`Acme Imports ${RUN}`);
      await form.getByLabel('Contact name').fill('Ana Díaz');
      await form.getByLabel('E-mail').fill(`  ${email} `);
      await form.getByLabel('Phone (optional)').fill('+1 212 555 0100');
      await form.getByLabel('Address (optional)').fill('1 Harbour Road, Newark');
      await form.getByLabel('What do you ship, and how often? (optional)').fill('About 40 parcels a week');
      await form.getByRole('button', { name: 'Request an account' }).click();
      const thanks = page.getByRole('status').filter({ hasText: THANKS });
      await expect(thanks).toBeVisible();
      await expect(thanks).toBeFocused();
      await expect(page.getByRole('form', { name: 'Request an account' })).toHaveCount(0);
      await keepScreenshot(page, join(SCREENSHOTS, `ship-with-us-thanks-${width}.png`));

      const admin = await adminRpc(request, siteUrl());
      const { accountRequests } = await admin.customers.listAccountRequests({ pageSize: 100 });
      const mine = accountRequests.find((r) => r.email === email);
      expect(mine).toMatchObject({
        companyName: `Acme Imports ${RUN}`,
        contactName: 'Ana Díaz',
        phone: '+1 212 555 0100',
        address: '1 Harbour Road, Newark',
        message: 'About 40 parcels a week',
        languageCode: 'en',
        state: AccountRequestState.PENDING,
      });
    });

    test('a request from the Spanish page asks for an answer in Spanish, with Spanish errors', async ({ page, request }) => {
      const email = `es-${RUN}-${width}@acme.example`;
      const form = await openForm(page, '/es/ship-with-us');
      await form.getByRole('button', { name: 'Solicitar una cuenta' }).click();
      await expect(form.getByLabel('Nombre de la empresa')).toHaveAccessibleDescription('Introduzca el nombre de su empresa.');
      await form.getByLabel('Nombre de la empresa').fill(`Envíos Ana ${RUN}`);
      await form.getByLabel('Persona de contacto').fill('Ana Díaz');
      await form.getByLabel('Correo electrónico').fill('ana@acme..example');
      await form.getByRole('button', { name: 'Solicitar una cuenta' }).click();
      await expect(form.getByLabel('Correo electrónico')).toHaveAccessibleDescription('Introduzca una dirección de correo electrónico válida.');
      await form.getByLabel('Correo electrónico').fill(email);
      await form.getByRole('button', { name: 'Solicitar una cuenta' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Gracias. Revisaremos su solicitud' })).toBeVisible();
      const admin = await adminRpc(request, siteUrl());
      const { accountRequests } = await admin.customers.listAccountRequests({ pageSize: 100 });
      expect(accountRequests.find((r) => r.email === email)?.languageCode).toBe('es');
    });

    test('the Arabic page is right to left and reads in order', async ({ page }) => {
      await page.goto('/ar/ship-with-us');
      await waitForHydration(page);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      // The heading starts at the right edge of its box.
      const [text, box] = await page.getByRole('heading', { level: 1 }).evaluate((h1) => {
        const range = document.createRange();
        range.selectNodeContents(h1);
        const t = range.getBoundingClientRect();
        const b = h1.getBoundingClientRect();
        return [{ left: t.left, right: t.right }, { left: b.left, right: b.right }];
      });
      expect(Math.abs(box.right - text.right)).toBeLessThanOrEqual(2);
      expect(text.left - box.left).toBeGreaterThan(20);
      // The intro's Arabic reads from the right, the company's Latin name left to right within it.
      const intro = await visualLines(page.locator('.page-hero-intro'));
      expect([...intro[0]].reverse().join('').startsWith('افتح حساب شركة'), intro[0]).toBe(true);
      expect(intro.some((line) => line.includes('Parcel Shipping Express')), intro.join(' | ')).toBe(true);
      // The three steps run from the right: the first is the rightmost (on a phone, the top one).
      const steps = await page.locator('.steps > li').evaluateAll((all) => all.map((li) => li.getBoundingClientRect()));
      if (width >= 1000) expect(steps[0].left).toBeGreaterThan(steps[2].left);
      else expect(steps[0].top).toBeLessThan(steps[2].top);
      // The form's labels sit on the right, the e-mail field stays left to right.
      const form = page.getByRole('form', { name: 'اطلب حسابًا' });
      await expect(form.getByLabel('البريد الإلكتروني')).toHaveAttribute('dir', 'ltr');
      const labelText = await form.locator('label[for="request-company"]').evaluate((label) => {
        const range = document.createRange();
        range.selectNodeContents(label);
        return range.getBoundingClientRect().right;
      });
      const input = (await form.getByLabel('اسم الشركة').boundingBox())!;
      expect(Math.abs(labelText - (input.x + input.width))).toBeLessThanOrEqual(2);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await keepScreenshot(page, join(SCREENSHOTS, `ship-with-us-ar-${width}.png`), { fullPage: true });
    });
  });
}
