import { expect, test, type Page } from '@playwright/test';
import { waitForHydration } from './support/hydrated';

const SMALL = { width: 375, height: 812 };
const LARGE = { width: 1280, height: 800 };

/** The slide of a carousel that is shown now. */
function shownSlide(page: Page, carousel: string) {
  return page.getByRole('region', { name: carousel }).locator('.carousel-slide:not([hidden])');
}

test.describe('carousels on small screens', () => {
  test.use({ viewport: SMALL });

  test('Our Story: 3 testimonial slides that wrap both ways, with dots', async ({ page }) => {
    await page.goto('/about');
    await waitForHydration(page);
    const carousel = page.getByRole('region', { name: 'Client testimonials' });
    await expect(carousel).toBeVisible();
    const slide = shownSlide(page, 'Client testimonials');
    await expect(slide).toHaveAttribute('aria-label', '1 of 3');
    await expect(carousel.getByRole('button', { name: /^Show slide/ })).toHaveCount(3);
    const next = carousel.getByRole('button', { name: 'Next slide' });
    for (const expected of ['2 of 3', '3 of 3', '1 of 3']) {
      await next.click();
      await expect(slide).toHaveAttribute('aria-label', expected);
    }
    await carousel.getByRole('button', { name: 'Previous slide' }).click();
    await expect(slide).toHaveAttribute('aria-label', '3 of 3');
    await carousel.getByRole('button', { name: 'Show slide 2 of 3' }).click();
    await expect(slide).toHaveAttribute('aria-label', '2 of 3');
    await expect(carousel.getByRole('button', { name: 'Show slide 2 of 3' })).toHaveAttribute('aria-current', 'true');
    // The large-screen grid is not shown.
    await expect(page.locator('.only-large').first()).toBeHidden();
  });

  test('Our Services: 4 offering slides with -mobile ids that wrap', async ({ page }) => {
    await page.goto('/services');
    await waitForHydration(page);
    const carousel = page.getByRole('region', { name: 'Our services' });
    await expect(page.locator('#freight-mode-air-freight-mobile')).toBeVisible();
    await expect(page.locator('#freight-mode-air-freight')).toBeHidden();
    await carousel.getByRole('button', { name: 'Previous slide' }).click();
    await expect(page.locator('#freight-mode-warehousing-mobile')).toBeVisible();
    await carousel.getByRole('button', { name: 'Next slide' }).click();
    await expect(page.locator('#freight-mode-air-freight-mobile')).toBeVisible();
    await expect(shownSlide(page, 'Our services')).toHaveAttribute('aria-label', '1 of 4');
  });

  test('a service hash opens the carousel on that offering and pulses it', async ({ page }) => {
    await page.goto('/services#freight-mode-land-freight');
    const card = page.locator('#freight-mode-land-freight-mobile');
    await expect(card).toBeVisible();
    await expect(card).toHaveClass(/is-pulsing/);
  });
});

test.describe('large screens', () => {
  test.use({ viewport: LARGE });

  test('Our Story shows the testimonials as a 3-column grid, Services the 4 offerings in a row', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('region', { name: 'Client testimonials' })).toBeHidden();
    await expect(page.locator('.only-large .testimonial-card')).toHaveCount(3);
    await page.goto('/services');
    await expect(page.getByRole('region', { name: 'Our services' })).toBeHidden();
    const tops = await page
      .locator('.only-large .offering-card')
      .evaluateAll((cards) => cards.map((card) => (card as HTMLElement).offsetTop));
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size, 'one row of four').toBe(1);
  });

  test('a #hash on Services: after 0.5 s it scrolls to the offering and pulses it for 2 s', async ({ page }) => {
    // The page's timers run on Playwright's clock, stopped from the start and moved by hand, so
    // the 0.5 s and 2 s are checked to the millisecond however busy the machine is.
    const start = new Date('2026-01-05T09:00:00Z');
    await page.clock.install({ time: start });
    // Stopped a minute on: the clock runs from the install, and pausing must not go back.
    await page.clock.pauseAt(new Date(start.getTime() + 60_000));
    await page.goto('/services#freight-mode-sea-freight');
    await waitForHydration(page);
    const card = page.locator('#freight-mode-sea-freight');
    await page.clock.runFor(499);
    await expect(card, 'no pulse before 0.5 s').not.toHaveClass(/is-pulsing/);
    await page.clock.runFor(1);
    await expect(card).toHaveClass(/is-pulsing/);
    await expect(card).toBeInViewport({ ratio: 1 });
    await expect(card).toBeFocused();
    await page.clock.runFor(1_999);
    await expect(card, 'still pulsing just before 2 s').toHaveClass(/is-pulsing/);
    await page.clock.runFor(1);
    await expect(card, 'the pulse ends at 2 s').not.toHaveClass(/is-pulsing/);
  });

  test('an offering highlights on hover', async ({ page }) => {
    await page.goto('/services');
    const card = page.locator('#freight-mode-air-freight');
    const before = await card.evaluate((el) => getComputedStyle(el).borderColor);
    await card.hover();
    await expect.poll(() => card.evaluate((el) => getComputedStyle(el).borderColor)).not.toBe(before);
  });

  test("a footer service link waits for a page that is still loading, then scrolls and pulses (100 ms retries)", async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Hold the Services page's code so the section is not there when the link is followed.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/services-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('contentinfo').getByRole('link', { name: 'Ground Transport' }).click();
    await expect(page).toHaveURL(/\/services#freight-mode-land-freight$/);
    // 0.5 s wait plus 1.5 s of retries: still no section.
    await page.clock.runFor(2_000);
    await expect(page.locator('#freight-mode-land-freight')).toHaveCount(0);
    release();
    const card = page.locator('#freight-mode-land-freight');
    // The next 100 ms retry after the page arrives finds it.
    await expect(async () => {
      await page.clock.runFor(100);
      await expect(card).toHaveClass(/is-pulsing/, { timeout: 100 });
    }).toPass();
    await expect(card).toBeInViewport();
    await page.clock.runFor(2_000);
    await expect(card).not.toHaveClass(/is-pulsing/);
  });

  test('a footer service link gives up after 3 s of retries', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/services-*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('contentinfo').getByRole('link', { name: 'Sea Freight' }).click();
    await page.clock.runFor(3_700);
    release();
    const card = page.locator('#freight-mode-sea-freight');
    await expect(async () => {
      await page.clock.runFor(100);
      await expect(card).toBeAttached({ timeout: 100 });
    }).toPass();
    await page.clock.runFor(1_000);
    await expect(card).not.toHaveClass(/is-pulsing/);
  });

  test('footer quick links go to the page and scroll to the top smoothly', async ({ page }) => {
    await page.goto('/about');
    await waitForHydration(page);
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Services', exact: true }).click();
    await expect(page).toHaveURL(/\/services$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test('FAQ: 8 questions, one answer open at a time, and the Contact Us link', async ({ page }) => {
  // The answers' staggered entrance is motion: shown to those who have not asked for less.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/faq');
  await waitForHydration(page);
  const items = page.locator('details.faq-item');
  await expect(items).toHaveCount(8);
  const questions = page.locator('details.faq-item > summary');
  await questions.nth(0).click();
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await expect(page.getByText('Air freight takes 1-3 business days')).toBeHidden();
  await questions.nth(3).click();
  await expect(items.nth(3)).toHaveAttribute('open', '');
  await expect(page.getByText('Air freight takes 1-3 business days, ground transport 2-5 business days and sea freight 10-30 days')).toBeVisible();
  await expect(page.locator('details.faq-item[open]')).toHaveCount(1);
  // Keyboard: Enter on a question opens it and closes the other.
  await questions.nth(4).focus();
  await page.keyboard.press('Enter');
  await expect(items.nth(4)).toHaveAttribute('open', '');
  await expect(page.locator('details.faq-item[open]')).toHaveCount(1);
  await questions.nth(4).click();
  await expect(page.locator('details.faq-item[open]')).toHaveCount(0);
  // Each item starts its entrance 100 ms after the one before.
  const delays = await items.evaluateAll((els) => els.map((el) => getComputedStyle(el).animationDelay));
  expect(delays).toEqual(['0s', '0.1s', '0.2s', '0.3s', '0.4s', '0.5s', '0.6s', '0.7s']);
  await page.getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});

test('Home: the ten sections in order, with ratings 5.0, 4.5, 5.0 and 4.8 from 1,482 reviews', async ({ page }) => {
  await page.goto('/');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Global Shipping & Logistics Solutions');
  await expect(main.getByRole('region', { name: 'Current offers' })).toContainText('20% off international shipping');
  for (const figure of ['150+', '19+', '1M+', '98%']) await expect(main.getByText(figure, { exact: true })).toBeVisible();
  const titles = await main.locator('h2.section-title, .cta h2').allTextContents();
  expect(titles).toEqual([
    'Why Businesses Ship With Us',
    'Our Services',
    'Why Choose Us',
    'How It Works',
    'Our Certifications & Achievements',
    'What Our Clients Say',
    'Ready to Ship with Us?',
  ]);
  const ratings = main.locator('.testimonial-card').getByRole('img');
  await expect(ratings).toHaveCount(3);
  for (const [index, rating] of ['5.0', '4.5', '5.0'].entries()) {
    await expect(ratings.nth(index)).toHaveAccessibleName(`Rated ${rating} out of 5`);
  }
  await expect(main.locator('.overall-rating')).toContainText('4.8');
  await expect(main.locator('.overall-rating')).toContainText('Based on 1,482 reviews');
});

test.describe('How It Works', () => {
  for (const [name, viewport, direction] of [
    ['a vertical list on small screens', SMALL, 'vertical'],
    ['a horizontal timeline on large screens', LARGE, 'horizontal'],
  ] as const) {
    test(name, async ({ browser }) => {
      const page = await browser.newPage({ viewport });
      await page.goto('/');
      const boxes = await page
        .locator('.timeline-step')
        // Layout offsets, which the entrance animation's transform does not move.
        .evaluateAll((steps) => steps.map((step) => ({ top: (step as HTMLElement).offsetTop, left: (step as HTMLElement).offsetLeft })));
      expect(boxes).toHaveLength(4);
      if (direction === 'vertical') expect(new Set(boxes.map((b) => Math.round(b.left))).size).toBe(1);
      else expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
      await page.close();
    });
  }
});

test('Privacy and Terms show today as "Last updated", and their sections', async ({ page }) => {
  const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
  await page.goto('/privacy');
  await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
  await expect(page.locator('.legal-section')).toHaveCount(7);
  await page.goto('/terms');
  await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
  await expect(page.locator('.legal-section h2')).toHaveText([
    '1. Acceptance of Terms',
    '2. Service Description',
    '3. User Responsibilities',
    '4. Shipping Policies',
    '5. Limitation of Liability',
    '6. Intellectual Property',
    '7. Termination',
    '8. Modifications',
    '9. Contact Information',
  ]);
});

test('Contact shows the e-mail, the business hours and the form slot', async ({ page }) => {
  await page.goto('/contact');
  const main = page.getByRole('main');
  await expect(main.locator('a[href^="mailto:"]')).toBeVisible();
  for (const text of ['Mon-Fri', '9:00 AM-6:00 PM', 'Sat', '9:00 AM-1:00 PM', 'Sun', 'Closed']) {
    await expect(main.getByText(text, { exact: true })).toBeVisible();
  }
  await expect(main.getByRole('heading', { name: 'Send Us a Message' })).toBeVisible();
});

test('animations are off when the visitor prefers reduced motion', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/faq');
  await expect(page.locator('details.faq-item').first()).toHaveCSS('animation-name', 'none');
  await page.goto('/');
  await expect(page.locator('.marquee-track').first()).toHaveCSS('animation-name', 'none');
  await context.close();
});
