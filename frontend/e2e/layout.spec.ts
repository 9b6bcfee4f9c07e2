import { expect, test } from '@playwright/test';
import { waitForHydration } from './support/hydrated';

test.describe('404 page', () => {
  test('an unknown route shows the 404 page and its links', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status(), 'a missing page is answered as missing').toBe(404);
    const main = page.getByRole('main');
    await expect(main.getByText('404', { exact: true })).toBeVisible();
    await expect(main.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(
      main.getByText("Oops! The page you're looking for seems to have been misplaced in transit.", { exact: true }),
    ).toBeVisible();
    await expect(main.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
    await expect(main.getByRole('link', { name: 'Track Package' })).toHaveAttribute('href', '/track');
    const help = main.getByRole('navigation', { name: 'Helpful links' });
    await expect(help.getByRole('link')).toHaveCount(3);
    for (const href of ['/contact', '/services', '/about']) {
      await expect(help.locator(`a[href="${href}"]`)).toBeVisible();
    }
    await main.getByRole('link', { name: 'Track Package' }).click();
    await expect(page).toHaveURL(/\/track$/);
  });
});

test.describe('routes', () => {
  test('every route of the route table answers', async ({ page }) => {
    const headings: Array<[string, RegExp]> = [
      ['/', /Global Shipping & Logistics Solutions/],
      ['/about', /Our Story/],
      ['/services', /Our Services/],
      ['/contact', /Contact/],
      ['/track', /Track/],
      ['/administration_and_development/login', /^Admin Login$/],
      ['/privacy', /Privacy Policy/],
      ['/terms', /Terms of Service/],
      ['/faq', /FAQ|Frequently Asked Questions/],
    ];
    for (const [path, heading] of headings) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
    for (const path of ['/login', '/administration_and_development']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/administration_and_development\/login$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Login');
    }
  });

  test('the home page links to tracking and quotes', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('.hero');
    await expect(hero.getByRole('link', { name: 'Track Package' })).toHaveAttribute('href', '/track');
    await expect(hero.getByRole('link', { name: 'Get a Quote' })).toHaveAttribute('href', '/contact');
  });
});

test.describe('header and footer', () => {
  test('the logo goes home and Track Package stands out', async ({ page }) => {
    await page.goto('/about');
    await waitForHydration(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Home', 'About', 'Services', 'Track Package', 'Contact']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Track Package' })).toHaveClass(/nav-link-primary/);
    await page.getByRole('banner').getByRole('link', { name: 'Home' }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the footer has its four columns and bottom bar', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const name of ['Facebook', 'Twitter', 'Instagram', 'LinkedIn']) {
      await expect(footer.getByRole('link', { name })).toBeVisible();
    }
    await expect(footer.getByRole('heading', { name: 'Quick Links' })).toBeVisible();
    const services = footer.getByRole('navigation', { name: 'Our Services' });
    await expect(services.getByRole('link', { name: 'Air Freight' })).toHaveAttribute(
      'href',
      '/services#freight-mode-air-freight',
    );
    await expect(services.getByRole('link', { name: 'Sea Freight' })).toHaveAttribute(
      'href',
      '/services#freight-mode-sea-freight',
    );
    await expect(services.getByRole('link', { name: 'Ground Transport' })).toHaveAttribute(
      'href',
      '/services#freight-mode-land-freight',
    );
    await expect(services.getByRole('link', { name: 'Warehousing' })).toHaveAttribute(
      'href',
      '/services#freight-mode-warehousing',
    );
    await expect(footer.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
    await expect(footer.locator('a[href^="mailto:"]')).toBeVisible();
    await expect(footer).toContainText('© 2020');
    for (const [name, href] of [
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['FAQ', '/faq'],
    ]) {
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
  });

  test('a footer service link scrolls to and pulses the service', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Warehousing' }).click();
    await expect(page).toHaveURL(/\/services#freight-mode-warehousing$/);
    const card = page.locator('#freight-mode-warehousing');
    await expect(card).toHaveClass(/is-pulsing/);
    await expect(card).toBeInViewport();
    await expect(card).not.toHaveClass(/is-pulsing/, { timeout: 5_000 });
  });
});

test.describe('mobile menu at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('opens, closes on an outside click and on a route change', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const toggle = page.getByRole('button', { name: /menu/i });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveAttribute('aria-controls', 'primary-navigation');
    await expect(nav.getByRole('link', { name: 'About' })).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'About' })).toBeVisible();

    // A click outside the header (the open menu covers the top of the page).
    await page.mouse.click(10, 760);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'About' })).toBeHidden();

    // Route change.
    await toggle.click();
    await expect(nav.getByRole('link', { name: 'Services' })).toBeVisible();
    await nav.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(/\/services$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Services' })).toBeHidden();
    // The next tap once the page has been drawn: the address changes before the page does, and a
    // tap in between belongs to the page being left.
    await expect(page).toHaveTitle(/Services/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // Escape.
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
  });
});

test.describe('theme', () => {
  test('the toggle switches to dark and the choice survives a reload', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    const html = page.locator('html');
    await expect(html).not.toHaveClass(/\bdark\b/);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await expect(html).toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
    await page.getByRole('button', { name: 'Switch to light mode' }).click();
    await expect(html).not.toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(html).not.toHaveClass(/\bdark\b/);
  });

  test('without a saved choice the system preference applies', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await context.close();
  });
});
