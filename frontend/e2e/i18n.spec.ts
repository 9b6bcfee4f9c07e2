// The site in English, Spanish, French and Arabic: every public route in every language at phone
// and desktop widths, the switcher, the browser-language suggestion, right to left, Intl formats.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { demoShipmentWithStatus } from './support/demo';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { waitForHydration } from './support/hydrated';
import { axeOn } from './support/page-checks';

const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr', prefix: '' },
  { code: 'es', name: 'Español', dir: 'ltr', prefix: '/es' },
  { code: 'fr', name: 'Français', dir: 'ltr', prefix: '/fr' },
  { code: 'ar', name: 'العربية', dir: 'rtl', prefix: '/ar' },
] as const;

const delivered = demoShipmentWithStatus('delivered');
const ROUTES = ['/', '/about', '/services', '/contact', '/track', `/track/${delivered.trackingNumber}`, '/privacy', '/terms', '/faq', '/no-such-page'];
const PRERENDERED = ['/', '/about', '/services', '/contact', '/track', '/privacy', '/terms', '/faq'];

const pathIn = (prefix: string, route: string) => (prefix && route === '/' ? prefix : prefix + route);

// A message id shown instead of its text ("home.hero.title") means a catalogue lacks it.
const MESSAGE_ID = /\b(?:common|home|about|services|contact|track|faq|privacy|terms|not_found)\.[a-z0-9_]+(?:\.[a-z0-9_]+)*\b/;

async function settle(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.page-spinner, .track-loading')).toHaveCount(0);
}

// At a phone's width, where a longer translation first runs out of room; the desktop layout of
// every language is in bidi.spec.ts and screenshots.spec.ts.
for (const width of [390]) {
  test(`every public route reads in every language at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const englishTitles = new Map<string, string>();
    for (const language of LANGUAGES) {
      for (const route of ROUTES) {
        const path = pathIn(language.prefix, route);
        await page.goto(path);
        await settle(page);
        await expect(page.locator('html'), path).toHaveAttribute('lang', language.code);
        await expect(page.locator('html'), path).toHaveAttribute('dir', language.dir);
        const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
        if (language.code === 'en') englishTitles.set(route, title);
        else expect(title, `${path}: the heading is translated`).not.toBe(englishTitles.get(route));
        expect(await page.locator('body').innerText(), path).not.toMatch(MESSAGE_ID);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} is wider than the screen`).toBeLessThanOrEqual(0);
        // Links of the page stay in its language.
        const hrefs = await page.locator('main a[href^="/"], footer a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
        for (const href of hrefs.filter((h) => !h.startsWith('/administration_and_development'))) {
          if (language.prefix) expect(href === language.prefix || href.startsWith(`${language.prefix}/`), `${path} links to ${href}`).toBe(true);
        }
        const name = route === '/' ? 'home' : route.split('/')[1] + (route.split('/').length > 2 ? '-shipment' : '');
        await keepScreenshot(page, join(SCREENSHOTS, `i18n-${language.code}-${name}-${width}.png`), { fullPage: false });
      }
    }
  });
}

test('the header keeps its links on one row just above the menu breakpoint, in every language', async ({ page }) => {
  await page.setViewportSize({ width: 1081, height: 800 });
  for (const language of LANGUAGES) {
    await page.goto(pathIn(language.prefix, '/services'));
    await settle(page);
    await expect(page.getByRole('button', { name: /menu|menú|القائمة/i })).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, language.code).toBeLessThanOrEqual(0);
    const links = await page.getByRole('banner').getByRole('navigation').getByRole('link').evaluateAll((all) => all.map((a) => a.getBoundingClientRect().top));
    expect(new Set(links.map(Math.round)).size, `${language.code}: one row`).toBe(1);
  }
});

test('each marketing page is prerendered in each language with its lang, dir and alternates', async ({ request }) => {
  for (const language of LANGUAGES) {
    for (const route of PRERENDERED) {
      const path = pathIn(language.prefix, route);
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      const html = await response.text();
      expect(html, path).toContain(`<html lang="${language.code}" dir="${language.dir}" data-prerendered-route="${path}"`);
      for (const other of LANGUAGES) {
        expect(html, path).toContain(`<link rel="alternate" hreflang="${other.code}" href="${pathIn(other.prefix, route)}">`);
      }
      expect(html, path).toContain(`<link rel="alternate" hreflang="x-default" href="${route}">`);
      // Only the page's language: no other language's catalogue is named.
      const catalogues = [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="\/assets\/messages-\w+\/(\w+)\/(\w+)\.json">/g)].map((m) => `${m[1]}/${m[2]}`);
      expect(catalogues.sort(), path).toEqual([`${language.code}/common`, `${language.code}/${route === '/' ? 'home' : route.slice(1)}`].sort());
    }
  }
});

test('the language switcher opens the same page in the chosen language', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/faq');
  await waitForHydration(page);
  await settle(page);
  await page.getByRole('button', { name: 'Language: English' }).click();
  await keepScreenshot(page, join(SCREENSHOTS, 'i18n-switcher-1280.png'));
  await page.getByRole('link', { name: 'Español' }).click();
  await expect(page).toHaveURL(/\/es\/faq$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('navigation', { name: 'Navegación principal' }).getByRole('link', { name: 'Servicios' })).toHaveAttribute('href', '/es/services');

  // On a phone the switcher is in the menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page.getByRole('button', { name: 'Idioma: Español' }).click();
  await keepScreenshot(page, join(SCREENSHOTS, 'i18n-switcher-390.png'));
  await page.getByRole('link', { name: 'العربية' }).click();
  await expect(page).toHaveURL(/\/ar\/faq$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('button', { name: 'فتح القائمة' }).click();
  await page.getByRole('button', { name: 'اللغة: العربية' }).click();
  const english = page.getByRole('link', { name: 'English' });
  await expect(english).toHaveAttribute('href', '/faq');
  await english.click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test.describe('a browser that asks for French', () => {
  test.use({ locale: 'fr-FR' });

  test('is offered the French page, never sent there', async ({ page, request }) => {
    const response = await request.get('/', { headers: { 'Accept-Language': 'fr-FR,fr;q=0.9' }, maxRedirects: 0 });
    expect(response.status()).toBe(200);
    await page.goto('/services');
    await waitForHydration(page);
    await settle(page);
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const offer = page.getByRole('complementary', { name: 'Français' });
    await expect(offer).toContainText('Cette page existe en français.');
    await offer.getByRole('link', { name: 'Français' }).click();
    await expect(page).toHaveURL(/\/fr\/services$/);
    await expect(page.getByRole('complementary', { name: 'Français' })).toHaveCount(0);
    // The choice is kept: English pages no longer offer French.
    await page.goto('/about');
    await settle(page);
    await expect(page.getByRole('complementary', { name: 'Français' })).toHaveCount(0);
  });

  test('can turn the offer down', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await settle(page);
    const offer = page.getByRole('complementary', { name: 'Français' });
    await offer.getByRole('button', { name: 'Dismiss' }).click();
    await expect(offer).toHaveCount(0);
    await page.reload();
    await settle(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('complementary', { name: 'Français' })).toHaveCount(0);
  });
});

test('Arabic is laid out right to left, with direction icons mirrored', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/ar/services');
  await settle(page);
  const logo = await page.locator('.brand-link').boundingBox();
  expect(logo!.x).toBeGreaterThan(640);
  const arrow = page.locator('main .flip-rtl:visible').first();
  await expect(arrow).toHaveCSS('transform', 'matrix(-1, 0, 0, 1, 0, 0)');
  await page.goto('/services');
  await settle(page);
  await expect(page.locator('main .flip-rtl:visible').first()).toHaveCSS('transform', 'none');
});

test('dates on the tracking page are written the way each language writes them', async ({ page }) => {
  const shipment = demoShipmentWithStatus('in_transit');
  const [year, month, day] = shipment.expectedDeliveryDate.split('-').map(Number);
  for (const [prefix, locale] of [['', 'en-US'], ['/fr', 'fr'], ['/ar', 'ar']] as const) {
    await page.goto(`${prefix}/track/${shipment.trackingNumber}`);
    await settle(page);
    const expected = await page.evaluate(
      ([l, y, m, d]) => new Intl.DateTimeFormat(l, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d)),
      [locale, year, month, day] as const,
    );
    await expect(page.locator('.eta-date')).toHaveText(expected);
  }
});

test('axe finds no serious or critical violation in Arabic', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const found: string[] = [];
  for (const route of ROUTES) {
    const path = pathIn('/ar', route);
    await page.goto(path);
    await settle(page);
    const { violations } = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const violation of violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        found.push(`${path}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      }
    }
  }
  expect(found).toEqual([]);
  await context.close();
});
