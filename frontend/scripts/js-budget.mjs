// The JavaScript budget of the first load of `/`: every script and modulepreload of
// dist/index.html (the prerendered Home page lists all it loads), and the message catalogues it
// preloads (JSON the scripts read), gzip-compressed and summed.
// Exits 1 above the budget. Usage: node scripts/js-budget.mjs [dist] [budget KB]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
// 102 KB: each lazily loaded page adds its chunk's name to the first load's preload table (the
// customers' portal, Ship with us and the staff's customer and pickup screens took it past 100);
// with the courier app's chunk the bundler moved its dynamic-import helper out of the page's own
// script into a 0.8 KB file of its own (the page's script got 0.3 KB smaller).
const budgetKb = Number(process.argv[3] ?? 102);

/** The same-origin .js files (and .json catalogues) an HTML page loads at once (never the .br/.gz copies that
 * scripts/precompress.mjs writes beside them: no page names those). */
function scriptsOf(html) {
  const urls = new Set();
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /\bsrc="/.test(tag);
    const isPreload = tag.startsWith('<link') && (/\brel="modulepreload"/.test(tag) || /\bas="fetch"/.test(tag));
    const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    if ((isScript || isPreload) && url && url.startsWith('/')) urls.add(url);
  }
  return [...urls];
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
let total = 0;
for (const url of scriptsOf(html)) {
  const size = gzipSync(readFileSync(join(dist, url)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${url}`);
}
const ok = total <= budgetKb * 1024;
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  JavaScript and messages of / (gzip), budget ${budgetKb} KB: ${ok ? 'ok' : 'OVER'}`);
if (!ok) process.exitCode = 1;
