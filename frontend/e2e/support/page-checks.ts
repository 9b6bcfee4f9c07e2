// Checks a screen's specs make of the page as a whole.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Axe on the page, run in the page itself ("legacy mode"). Otherwise @axe-core/playwright opens
 * a blank page in the context for every run, to put together the results of the page's frames:
 * a new renderer each time, which made a run take about twice as long (the site has no iframe,
 * and legacy mode still reads same-origin ones). The findings are the same. */
export function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true);
}

/** The serious or critical axe findings (WCAG 2.1 A and AA) inside `selector`, in this theme. */
async function seriousFindings(page: Page, selector: string, dark: boolean): Promise<string[]> {
  const axe = axeOn(page).include(selector).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  // Only colours differ between the themes: in dark, check just those.
  if (dark) axe.withRules(['color-contrast', 'link-in-text-block']);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${dark ? 'dark' : 'light'} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** No serious or critical axe finding (WCAG 2.1 A and AA) inside `selector`, in light and dark. */
export async function expectAccessible(page: Page, selector: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    let serious = await seriousFindings(page, selector, dark);
    // A live page may re-render under axe (a change made elsewhere): a real finding is there
    // on every look, so a finding is looked at twice more, a second apart, before it fails.
    for (let look = 1; serious.length > 0 && look < 3; look += 1) {
      await page.waitForTimeout(1_000);
      serious = await seriousFindings(page, selector, dark);
    }
    expect(serious).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.toggle('dark', false));
}

export async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}
