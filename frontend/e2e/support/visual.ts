// Measuring what a visitor sees: colour contrast (WCAG 2 formula), what lies under the floating
// theme switch, and the colours behind an element as painted.
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

/** Saves a screenshot for a person to look at. Under CI, which keeps no files, it takes none
 * (capturing costs the browser more than most checks); E2E_SCREENSHOTS=1 takes them there too. */
export async function keepScreenshot(
  target: Page | Locator,
  path: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (process.env.CI && !process.env.E2E_SCREENSHOTS) return;
  await ('goto' in target ? target.screenshot({ path, ...options }) : target.screenshot({ path }));
}

export type Rgb = [number, number, number];

/** "rgb(29, 78, 216)" or "rgba(…)" as computed by the browser. */
export function parseRgb(css: string): Rgb {
  const match = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(css);
  if (!match) throw new Error(`not an rgb() colour: ${css}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function luminance([r, g, b]: Rgb): number {
  const channel = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The average colour painted inside the element's box with the element itself hidden: what
 * it stands on (the page, a gradient, the footer). */
export async function backdropColour(page: Page, element: Locator): Promise<Rgb> {
  const box = await element.boundingBox();
  if (!box) throw new Error('element has no box');
  // A handle, not the locator: a role locator no longer finds the element once it is hidden.
  const handle = await element.elementHandle();
  await handle!.evaluate((el: HTMLElement) => (el.style.visibility = 'hidden'));
  const png = await page.screenshot({ clip: box, animations: 'disabled' });
  await handle!.evaluate((el: HTMLElement) => (el.style.visibility = ''));
  await handle!.dispose();
  // Decoded by the browser itself (no image library in the tests): a blob, not a fetched URL.
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += data[i + c];
    const pixels = data.length / 4;
    return sum.map((v) => Math.round(v / pixels)) as [number, number, number];
  }, png.toString('base64'));
}

/**
 * What the element's box covers in the viewport right now: links, buttons, form fields, FAQ
 * summaries and focusable regions (their boxes), and every line of visible text (the boxes of
 * the glyphs, so a wide paragraph with a short last line is judged by its text). Moving marquee
 * strips (masked at the edges) and visually hidden text are left out.
 */
export function contentUnder(element: Locator): Promise<string[]> {
  return element.evaluate((cover) => {
    const t = cover.getBoundingClientRect();
    const hits: string[] = [];
    const under = (r: DOMRect) =>
      r.width > 1 && r.height > 1 && r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top;
    const ignored = (el: Element) =>
      cover.contains(el) ||
      el.closest('.marquee, .visually-hidden') !== null ||
      !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;

    const interactive = 'a[href], button, input, textarea, select, summary, [tabindex]:not([tabindex="-1"])';
    for (const el of document.querySelectorAll(interactive)) {
      if (ignored(el)) continue;
      if (Array.from(el.getClientRects()).some(under)) hits.push(name(el));
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent?.trim() || !parent || ignored(parent)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      if (Array.from(range.getClientRects()).some(under)) hits.push(`text "${node.textContent.trim().slice(0, 40)}"`);
    }
    return hits;
  });
}

/** Scrolls the window at once (no smooth scrolling) and waits for the frame to be painted. */
export async function scrollWindowTo(page: Page, top: number): Promise<void> {
  await page.evaluate(
    (y) =>
      new Promise<void>((done) => {
        window.scrollTo({ top: y, behavior: 'instant' });
        requestAnimationFrame(() => requestAnimationFrame(() => done()));
      }),
    top,
  );
}
