// Reading bidirectional text as it is drawn: the x-order of each character on each line.
import type { Locator } from '@playwright/test';

/** The rendered text of `scope` line by line, each line's characters left to right as they
 * appear on screen (visually hidden text left out). */
export function visualLines(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const chars: Array<{ ch: string; x: number; y: number }> = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('.visually-hidden')) continue;
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i += 1) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getBoundingClientRect();
        if (rect.width === 0) continue;
        chars.push({ ch: text[i], x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });
      }
    }
    chars.sort((a, b) => a.y - b.y);
    const lines: Array<typeof chars> = [];
    for (const c of chars) {
      const line = lines.at(-1);
      if (line && Math.abs(line[0].y - c.y) < 6) line.push(c);
      else lines.push([c]);
    }
    return lines.map((line) =>
      line
        .sort((a, b) => a.x - b.x)
        .map((c) => c.ch)
        .join('')
        .trim(),
    );
  });
}
