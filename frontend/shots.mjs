import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:18555';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync'] });
for (const scheme of ['light', 'dark']) {
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${base}/administration_and_development/login`);
    await page.getByLabel('Email', { exact: true }).fill('admin@example.com');
    await page.getByLabel('Password', { exact: true }).fill('shots-Admin-Passw0rd');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(/administration_and_development$/);
    await page.waitForSelector('.dashboard-figures');
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/shots/dashboard-${width}-${scheme}.png`, fullPage: true });
    await page.getByRole('checkbox', { name: 'Select every shipment on this page' }).check();
    await page.screenshot({ path: `/tmp/shots/bulkbar-${width}-${scheme}.png` });
    await page.getByRole('region', { name: 'Selected shipments' }).getByRole('button', { name: 'Update Status' }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/shots/bulk-${width}-${scheme}.png` });
    await page.keyboard.press('Escape');
    await page.goto(`${base}/administration_and_development/users`);
    await page.waitForSelector('table');
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/users-${width}-${scheme}.png`, fullPage: true });
    await page.goto(`${base}/administration_and_development/audit`);
    await page.waitForSelector('.audit-list');
    await page.locator('.audit-changes summary').first().click().catch(() => {});
    await page.screenshot({ path: `/tmp/shots/audit-${width}-${scheme}.png`, fullPage: true });
    await context.close();
  }
}
await browser.close();
