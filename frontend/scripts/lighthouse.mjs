// Lighthouse performance and accessibility of /, /track and /services on a running site.
// Starts nothing itself: `node scripts/lighthouse.mjs http://127.0.0.1:8080` (make bench runs
// the gateway first). Uses Chromium at CHROME_PATH (default /usr/bin/chromium); every request
// stays on the given host. Exits 1 when a score is under 95.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const base = process.argv[2];
if (!base) {
  console.error('usage: node scripts/lighthouse.mjs <base URL, e.g. http://127.0.0.1:8080>');
  process.exit(2);
}
const ROUTES = ['/', '/track', '/services'];
const MIN_SCORE = 95;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
let failed = false;
try {
  for (const route of ROUTES) {
    const url = new URL(route, base).href;
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // The default mobile profile (slow 4G, 4x CPU slowdown), simulated.
      formFactor: 'mobile',
    });
    const { performance, accessibility } = result.lhr.categories;
    const scores = { performance: Math.round(performance.score * 100), accessibility: Math.round(accessibility.score * 100) };
    const ok = scores.performance >= MIN_SCORE && scores.accessibility >= MIN_SCORE;
    failed ||= !ok;
    console.log(`${route.padEnd(10)} performance ${scores.performance}  accessibility ${scores.accessibility}  ${ok ? 'ok' : `UNDER ${MIN_SCORE}`}`);
  }
} finally {
  await chrome.kill();
}
if (failed) process.exitCode = 1;
