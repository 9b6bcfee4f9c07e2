import { test, expect } from '@playwright/test';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { ShipmentStatus } from '../src/gen/logistics/v1/shipment_pb';
import { LOGIN_PATH, submitLogin } from './support/admin';
import { siteUrl } from './support/env';
import { adminRpc } from './support/rpc';
import { createShipment, moveShipment } from './support/tracking';

test('courier screenshots', async ({ browser, request }) => {
  const run = `${Date.now().toString(36)}`;
  const admin = await adminRpc(request, siteUrl());
  const email = `shot-${run}@example.com`;
  const user = await admin.users.createUser({ user: { email, name: 'Rider', role: Role.COURIER }, password: 'courier-Passw0rd-2026' });
  const a = await createShipment(admin, run, { destination: 'Tema, Ghana' });
  const b = await moveShipment(admin, await createShipment(admin, run, { destination: 'Accra, Ghana' }), ShipmentStatus.IN_TRANSIT, 'Accra hub');
  const now = new Date();
  await admin.shipments.assignShipmentsToCourier({ shipmentIds: [a.id, b.id], courierId: user.id, courierEmail: email, date: { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1, day: now.getUTCDate() } });
  for (const [width, height] of [[390, 844], [1280, 900]]) {
    for (const scheme of ['light', 'dark'] as const) {
      for (const lang of scheme === 'light' ? ['en', 'ar'] : ['en']) {
        const ctx = await browser.newContext({ baseURL: siteUrl(), viewport: { width, height }, colorScheme: scheme });
        const page = await ctx.newPage();
        await page.addInitScript((l) => localStorage.setItem('language-choice', l), lang);
        await page.goto(LOGIN_PATH);
        await submitLogin(page, email, 'courier-Passw0rd-2026');
        await expect(page).toHaveURL(/\/courier$/);
        await expect(page.locator('.courier-stop').first()).toBeVisible();
        await page.screenshot({ path: `/tmp/shots/courier-${width}-${scheme}-${lang}.png`, fullPage: true });
        await page.locator('.courier-stop button').first().click();
        await page.locator('input[type=radio]').nth(3).check();
        await page.screenshot({ path: `/tmp/shots/courier-shipment-${width}-${scheme}-${lang}.png`, fullPage: true });
        await ctx.close();
      }
    }
  }
});
