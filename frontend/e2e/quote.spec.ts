// Get a quote: the page prerendered in every language, a visitor's quote on the demo public card
// (English and Arabic, at 390 and 1280 px), its field checks, "Book this" leading a visitor to
// the portal's sign-in, a customer's user booking at the quoted price, and the answers the
// server gives rarely (no service on the route, the rate limit), played by the test.
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { QuoteSchema, QuoteService, type Quote } from '../src/gen/logistics/v1/rate_card_service_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { CUSTOMER_PASSWORD, addCustomerUser, createCustomer, customerPortal, staffClients } from './support/customers';
import { flowAt, siteUrl } from './support/env';
import { waitForHydration } from './support/hydrated';
import { fetchThrough } from './support/rpc';
import { toastWithText } from './support/track-page';
import { dayFromToday } from './support/tracking';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { axeOn } from './support/page-checks';

const PAGES = [
  { code: 'en', dir: 'ltr', path: '/quote', heading: 'Get a quote' },
  { code: 'es', dir: 'ltr', path: '/es/quote', heading: 'Obtener una cotización' },
  { code: 'fr', dir: 'ltr', path: '/fr/quote', heading: 'Obtenir un devis' },
  { code: 'ar', dir: 'rtl', path: '/ar/quote', heading: 'احصل على عرض سعر' },
] as const;

/** The page's words in the two languages the flows take. */
const WORDS = {
  en: {
    path: '/quote',
    locale: 'en-US',
    form: 'Your parcels',
    from: 'From',
    to: 'To',
    country: 'Country',
    city: 'City (optional)',
    weight: 'Weight (kg)',
    length: 'Length (cm)',
    width: 'Width (cm)',
    height: 'Height (cm)',
    submit: 'Get quote',
    addParcel: 'Add parcel',
    parcel2: 'Parcel 2',
    removeParcel2: 'Remove parcel 2',
    chooseCountry: 'Please choose a country.',
    weightRequired: 'Please enter the weight.',
    answer: 'Your quote',
    summary: /^Quote Q-[0-9A-Z]{10}, valid until .+\d/,
    chargeable: /^Chargeable weight .+ \((actual weight|volumetric weight, larger than the actual .+)\)$/,
    delivery: 'Expected delivery: ',
    book: 'Book this',
  },
  ar: {
    path: '/ar/quote',
    locale: 'ar',
    form: 'طرودك',
    from: 'من',
    to: 'إلى',
    country: 'الدولة',
    city: 'المدينة (اختياري)',
    weight: 'الوزن (كغ)',
    length: 'الطول (سم)',
    width: 'العرض (سم)',
    height: 'الارتفاع (سم)',
    submit: 'احصل على العرض',
    addParcel: 'إضافة طرد',
    parcel2: 'الطرد 2',
    removeParcel2: 'إزالة الطرد 2',
    chooseCountry: 'يرجى اختيار دولة.',
    weightRequired: 'يرجى إدخال الوزن.',
    answer: 'عرض السعر',
    summary: /^عرض السعر Q-[0-9A-Z]{10}، صالح حتى .+/,
    chargeable: /^الوزن المحتسب .+ \((الوزن الفعلي|الوزن الحجمي، وهو أكبر من الوزن الفعلي .+)\)$/,
    delivery: 'التسليم المتوقع: ',
    book: 'احجز هذا',
  },
} as const;

type Words = (typeof WORDS)[keyof typeof WORDS];

/** 5 kg, 40 × 30 × 20 cm, from Lagos to Rotterdam: priced by the demo public card. */
const LAGOS_TO_ROTTERDAM = {
  origin: { country: 'NG', city: 'Lagos' },
  destination: { country: 'NL', city: 'Rotterdam' },
  parcels: [{ weightKg: 5, lengthCm: 40, widthCm: 30, heightCm: 20, count: 1 }],
};

/** The same request as the page sends, straight to the public QuoteService. */
async function apiQuote(request: APIRequestContext): Promise<Quote> {
  const transport = createGrpcWebTransport({ baseUrl: siteUrl(), fetch: fetchThrough(request, siteUrl()) });
  return createClient(QuoteService, transport).createQuote(LAGOS_TO_ROTTERDAM);
}

async function openQuote(page: Page, words: Words): Promise<Locator> {
  await page.goto(words.path);
  await waitForHydration(page);
  return page.getByRole('form', { name: words.form });
}

async function fillLagosToRotterdam(form: Locator, words: Words) {
  const from = form.getByRole('group', { name: words.from, exact: true });
  const to = form.getByRole('group', { name: words.to, exact: true });
  await from.getByLabel(words.country).selectOption('NG');
  await from.getByLabel(words.city).fill('Lagos');
  await to.getByLabel(words.country).selectOption('NL');
  await to.getByLabel(words.city).fill('Rotterdam');
  await form.getByLabel(words.weight).first().fill('5');
  await form.getByLabel(words.length).first().fill('40');
  await form.getByLabel(words.width).first().fill('30');
  await form.getByLabel(words.height).first().fill('20');
}

/** No serious or critical axe finding (WCAG 2.1 A and AA) in the page's main part, light and dark. */
async function expectAccessible(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    // The theme's colours change with a (reduced: 0.01 ms) transition: axe reads them once it ended.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.waitForFunction(() => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState === 'finished'));
    const { violations } = await axeOn(page).include('main').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${dark ? 'dark' : 'light'} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function shoot(page: Page, target: Locator, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
    await keepScreenshot(target, join(SCREENSHOTS, `${name}-${theme}.png`));
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

test('the page is prerendered in each language, and the footer and Contact lead to it', async ({ page, request }) => {
  for (const { code, dir, path, heading } of PAGES) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect(html, path).toContain(`<html lang="${code}" dir="${dir}" data-prerendered-route="${path}"`);
    expect(html, path).toContain(`<h1>${heading}</h1>`);
    expect(html, path).toContain(`<title>${heading} | Parcel Shipping Express</title>`);
    for (const other of PAGES) expect(html, path).toContain(`<link rel="alternate" hreflang="${other.code}" href="${other.path}">`);
  }
  await page.goto('/fr/services');
  await waitForHydration(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Obtenir un devis' }).click();
  await expect(page).toHaveURL(/\/fr\/quote$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Obtenir un devis');
  await page.goto('/contact');
  await waitForHydration(page);
  await expect(page.getByText('Want a price now?')).toBeVisible();
  await page.getByRole('link', { name: 'Get an instant quote' }).click();
  await expect(page).toHaveURL(/\/quote$/);
});

// Each width in one language and each language at one width: the phone in Arabic (right to
// left, the narrowest), the desktop in English.
for (const [width, codes] of [
  [390, ['ar']],
  [1280, ['en']],
] as const) {
  for (const code of codes) {
    test(`at ${width} px in ${code === 'en' ? 'English' : 'Arabic'}, a visitor gets a quote and is asked to sign in to book it`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 900 });
      const words = WORDS[code];
      const sent: string[] = [];
      page.on('request', (r) => r.url().includes('/CreateQuote') && sent.push(r.url()));
      // Hydration mismatches and failed calls show up here.
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      const form = await openQuote(page, words);
      if (code === 'ar') await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');

      // Nothing typed: each missing value is named at its field, and nothing is sent.
      await form.getByRole('button', { name: words.submit }).click();
      const weight = form.getByLabel(words.weight).first();
      await expect(weight).toHaveAccessibleDescription(words.weightRequired);
      await expect(weight).toHaveAttribute('aria-invalid', 'true');
      await expect(form.getByRole('group', { name: words.from, exact: true }).getByLabel(words.country)).toHaveAccessibleDescription(words.chooseCountry);
      await expect(form.getByRole('group', { name: words.from, exact: true }).getByLabel(words.country)).toBeFocused();
      expect(sent).toEqual([]);
      await expectNoSidewaysScroll(page);
      await keepScreenshot(page, join(SCREENSHOTS, `quote-errors-${code}-${width}.png`), { fullPage: true });

      // A second parcel row, and away again.
      await form.getByRole('button', { name: words.addParcel }).click();
      await expect(form.getByRole('group', { name: words.parcel2 })).toBeVisible();
      await form.getByRole('button', { name: words.removeParcel2 }).click();
      await expect(form.getByRole('group', { name: words.parcel2 })).toHaveCount(0);

      // The quote: its heading takes the focus; the cheapest service first, each with its price
      // in the page's locale, its chargeable weight and its delivery days.
      await fillLagosToRotterdam(form, words);
      await form.getByRole('button', { name: words.submit }).click();
      const answer = page.getByRole('region', { name: words.answer });
      await expect(answer.getByRole('heading', { name: words.answer })).toBeFocused();
      await expect(answer.getByText(words.summary)).toBeVisible();
      const cards = answer.getByRole('article');
      const expected = await apiQuote(request);
      expect(expected.options.length).toBeGreaterThan(0);
      await expect(cards).toHaveCount(expected.options.length);
      const first = expected.options[0];
      expect(first.priceMinor).toBeGreaterThan(0n);
      const [price, dates] = await page.evaluate(
        ({ locale, minor, currency, from, to }) => {
          const decimal = `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
          const days = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
          const utc = (d: { year: number; month: number; day: number }) => Date.UTC(d.year, d.month - 1, d.day);
          return [
            new Intl.NumberFormat(locale, { style: 'currency', currency }).format(decimal as unknown as number),
            utc(to) > utc(from) ? days.formatRange(utc(from), utc(to)) : days.format(utc(from)),
          ];
        },
        {
          locale: words.locale,
          minor: Number(first.priceMinor),
          currency: expected.currency,
          from: { year: first.earliestDeliveryDate!.year, month: first.earliestDeliveryDate!.month, day: first.earliestDeliveryDate!.day },
          to: { year: first.latestDeliveryDate!.year, month: first.latestDeliveryDate!.month, day: first.latestDeliveryDate!.day },
        },
      );
      const card = cards.first();
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(first.serviceName);
      await expect(card.locator('.quote-price')).toHaveText(price);
      await expect(card.getByText(words.chargeable)).toBeVisible();
      await expect(card.getByText(`${words.delivery}${dates}`)).toBeVisible();
      await expect(card.locator('.quote-charge').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      await shoot(page, answer, `quote-answer-${code}-${width}`);
      expect(errors).toEqual([]);

      // "Book this" without a customer's session: the portal's sign-in, which goes on to the
      // booking, and offers an account to ask for.
      await card.getByRole('button', { name: words.book }).click();
      await expect(page).toHaveURL(/\/portal\/login\?next=%2Fportal%2Fbook%3Fquote%3D[^&]+%26service%3D[A-Z_]+$/);
      const next = new URL(page.url()).searchParams.get('next')!;
      expect(new URLSearchParams(next.split('?')[1]).get('service')).toBe(first.serviceCode);
      if (code === 'en') {
        await page.getByRole('link', { name: 'Ask for one' }).click();
        await expect(page).toHaveURL(/\/ship-with-us$/);
      }
    });
  }
}

test("a customer's user books from a quote, at the quoted price", async ({ page, request, playwright }) => {
  flowAt(page, 1280);
  test.setTimeout(90_000);
  const run = `${Date.now()}`;
  const email = `quoter.${run}@acme.example`;
  const staff = await staffClients(request);
  const customer = await createCustomer(staff, `Quote Buyers ${run}`, { name: 'Ana Quoter', email });
  await addCustomerUser(staff, customer.id, email, 'Ana Quoter', Role.CUSTOMER_USER);

  // A quote asked for while signed out, booked after signing in: the sign-in goes on to it.
  const form = await openQuote(page, WORDS.en);
  await fillLagosToRotterdam(form, WORDS.en);
  await form.getByRole('button', { name: 'Get quote' }).click();
  const answer = page.getByRole('region', { name: 'Your quote' });
  const cards = answer.getByRole('article');
  await expect(cards.first()).toBeVisible();
  const service = (await cards.nth(0).getByRole('heading', { level: 3 }).textContent())!;
  const price = (await cards.nth(0).locator('.quote-price').textContent())!;
  const quoteId = /Q-[0-9A-Z]{10}/.exec((await answer.getByText(/^Quote Q-/).textContent())!)![0];
  await cards.nth(0).getByRole('button', { name: 'Book this' }).click();
  await expect(page).toHaveURL(/\/portal\/login\?next=/);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(CUSTOMER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/book\?quote=[^&]+&service=[A-Z_]+$/);

  // The booking, prefilled from the quote, shows the price it keeps.
  await expect(page.getByText(new RegExp(`^Quoted price: ${price.replace(/[$.]/g, '\\$&')} \\(quote ${quoteId}, valid until .+\\)$`))).toBeVisible();
  await expect(page.getByText(`Service: ${service}`)).toBeVisible();
  await expect(page.getByLabel('Origin')).toHaveValue('Lagos, Nigeria');
  await expect(page.getByLabel('Destination')).toHaveValue('Rotterdam, Netherlands');
  const firstPackage = page.getByRole('group', { name: 'Package 1' });
  await expect(firstPackage.getByLabel('Quantity')).toHaveValue('1');
  await expect(firstPackage.getByLabel('Weight (kg)')).toHaveValue('5');
  await expect(firstPackage.getByLabel('Length (cm)')).toHaveValue('40');
  const receiver = page.getByRole('group', { name: 'Receiver' });
  await receiver.getByLabel('Name').fill('Jan Jansen');
  await receiver.getByLabel('Phone').fill('+31 10 555 7390');
  await receiver.getByLabel('Address').fill(`Coolsingel ${run}, Rotterdam`);
  await receiver.getByLabel('Email').fill(`jan.${run}@example.nl`);
  await firstPackage.getByLabel('Piece Type').fill('Box');
  await firstPackage.getByLabel('Description').fill(`Spare parts ${run}`);
  const pickup = dayFromToday(2);
  await page.getByLabel('Pickup Date').fill(`${pickup.year}-${String(pickup.month).padStart(2, '0')}-${String(pickup.day).padStart(2, '0')}`);
  await page.getByLabel('Pickup Time').fill('09:30');
  await keepScreenshot(page, join(SCREENSHOTS, 'quote-booking-1280.png'), { fullPage: true });

  // Heavier than the quote: refused with the server's sentence.
  await firstPackage.getByLabel('Weight (kg)').fill('9');
  await page.getByRole('button', { name: 'Book shipment' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'weighs more than the quote' })).toBeVisible();
  await firstPackage.getByLabel('Weight (kg)').fill('5');
  await page.getByRole('button', { name: 'Book shipment' }).click();

  // Booked at the quoted price: its page shows it, and so does the API.
  await expect(page).toHaveURL(/\/portal\/shipments\/[^/]+$/);
  const trackingNumber = (await page.getByTestId('portal-tracking-number').textContent())!.trim();
  await expect(toastWithText(page, `Shipment booked: ${trackingNumber}`)).toBeVisible();
  await expect(page.locator('.details-list').getByText(price, { exact: true })).toBeVisible();
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const api = await playwright.request.newContext({ baseURL: siteUrl() });
  const portal = await customerPortal(api, email);
  const shipment = await portal.getShipment({ id });
  const quoted = await apiQuote(request);
  expect(shipment.totalFreightCents).toBe(quoted.options.find((o) => o.serviceName === service)!.priceMinor);
  await api.dispose();

  // Signed in, the quote page books straight away; a spoiled quote says so.
  await page.goto('/quote');
  await waitForHydration(page);
  const again = page.getByRole('form', { name: 'Your parcels' });
  await fillLagosToRotterdam(again, WORDS.en);
  await again.getByRole('button', { name: 'Get quote' }).click();
  await page.getByRole('region', { name: 'Your quote' }).getByRole('button', { name: 'Book this' }).first().click();
  await expect(page).toHaveURL(/\/portal\/book\?quote=[^&]+&service=[A-Z_]+$/);
  await expect(page.getByText(/^Quoted price: /)).toBeVisible();
  await page.goto('/portal/book?quote=not.a.token&service=EXPRESS_AIR');
  const expired = page.getByRole('alert').filter({ hasText: 'This quote has expired. Get a new quote.' });
  await expect(expired).toBeVisible();
  await expired.getByRole('link', { name: 'Get a new quote.' }).click();
  await expect(page).toHaveURL(/\/quote$/);
});

/** A gRPC-web answer with one message and an OK status. */
function grpcWebBody(message: Uint8Array): Buffer {
  const trailer = Buffer.from('grpc-status:0\r\n');
  const frame = (flag: number, payload: Uint8Array) => {
    const head = Buffer.alloc(5);
    head.writeUInt8(flag, 0);
    head.writeUInt32BE(payload.length, 1);
    return Buffer.concat([head, Buffer.from(payload)]);
  };
  return Buffer.concat([frame(0, message), frame(0x80, trailer)]);
}

test('a route without a service says so and leads to Contact; the rate limit is a toast', async ({ page }) => {
  flowAt(page, 390);
  let answer: 'none' | 'limited' = 'none';
  await page.route('**/logistics.v1.QuoteService/CreateQuote', (route) =>
    answer === 'none'
      ? route.fulfill({
          status: 200,
          headers: { 'content-type': 'application/grpc-web+proto' },
          body: grpcWebBody(toBinary(QuoteSchema, create(QuoteSchema, { id: 'Q-0000000000', token: 'a.b.c', currency: 'USD', options: [] }))),
        })
      : route.fulfill({
          status: 200,
          headers: {
            'content-type': 'application/grpc-web+proto',
            'grpc-status': '8',
            'grpc-message': encodeURIComponent('Too many quotes from your network. Please try again later.'),
          },
          body: '',
        }),
  );
  const form = await openQuote(page, WORDS.en);
  await fillLagosToRotterdam(form, WORDS.en);
  await form.getByRole('button', { name: 'Get quote' }).click();
  const region = page.getByRole('region', { name: 'Your quote' });
  await expect(region.getByText('We do not have a service for this route yet. Write to us and we will price it.')).toBeVisible();
  await expect(region.getByRole('article')).toHaveCount(0);
  await keepScreenshot(region, join(SCREENSHOTS, 'quote-none-390.png'));
  answer = 'limited';
  await form.getByRole('button', { name: 'Get quote' }).click();
  await expect(toastWithText(page, 'Too many quotes from your network. Please try again later.')).toBeVisible();
  await region.getByRole('link', { name: 'Write to us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});
