// "Send me a link": strangers who use up a shipment's verification attempts cannot lock its
// parties out, because the link e-mailed to the address on file opens the full view; in English
// and Spanish, at phone and desktop widths.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { EmailTemplate } from '../src/gen/logistics/v1/notification_pb';
import { flowAt, layoutUnlessDesktop, siteUrl } from './support/env';
import { adminRpc, type Clients } from './support/rpc';
import {
  VERIFY_BUTTON,
  VERIFY_LABEL,
  createShipment,
  expectFullView,
  expectLimitedView,
  partiesFor,
  result,
  sitePath,
  waitForEmail,
} from './support/tracking';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const catalogue = (language: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'src', 'locales', language, 'track.json'), 'utf8')) as Record<string, string>;
const en = catalogue('en');
const es = catalogue('es');

const RUN = Date.now().toString(36).slice(-6);
let serial = 0;
function tag(): string {
  serial += 1;
  return `${RUN}l${serial}`;
}

let admin: Clients;
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: siteUrl() });
  admin = await adminRpc(request, siteUrl());
});

for (const viewport of VIEWPORTS) {
  test.describe(`send me a link (${viewport.name})`, layoutUnlessDesktop(viewport), () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('after strangers spent every attempt, the receiver gets a link by e-mail that opens the full view', async ({ page }) => {
      flowAt(page, 1280);
      const run = tag();
      const shipment = await createShipment(admin, run);
      const { receiver } = partiesFor(run);
      // TRACKING_VERIFY_ATTEMPTS_PER_HOUR (10) wrong guesses from someone else.
      for (let guess = 0; guess < 10; guess += 1) {
        await expect(
          admin.shipments.verifyTrackingAccess({ trackingNumber: shipment.trackingNumber, answer: `${1000 + guess}` }),
        ).rejects.toThrow();
      }

      await page.goto(`/track/${shipment.trackingNumber}`);
      const input = result(page).getByRole('textbox', { name: VERIFY_LABEL });
      await input.fill(receiver.email);
      await result(page).getByRole('button', { name: VERIFY_BUTTON }).click();
      await expect(input).toHaveAccessibleDescription(/^Too many attempts/);

      const send = result(page).getByRole('button', { name: en['track.verify.send_link'] });
      await expect(send).toBeVisible();
      expect(await send.evaluate((el) => [el.tagName, el.getAttribute('type')])).toEqual(['BUTTON', 'button']);
      await expect(result(page)).toContainText(en['track.verify.send_link_intro']);
      // Keyboard first: focus and Enter, as a real button takes them.
      await send.focus();
      await page.keyboard.press('Enter');
      await expect(result(page).getByRole('status').filter({ hasText: en['track.verify.link_sent'] })).toBeVisible();
      const box = await send.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(box!.height).toBeGreaterThanOrEqual(24);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectLimitedView(page, shipment, run);

      const email = await waitForEmail(
        admin,
        (e) =>
          e.trackingNumber === shipment.trackingNumber &&
          e.toEmail === receiver.email &&
          e.template === EmailTemplate.STATUS_UPDATE,
        'the link e-mailed to the receiver',
      );
      const link = email.templateParams.tracking_url;
      expect(link).toContain(`/track/${shipment.trackingNumber}?access=`);
      await page.goto(sitePath(link));
      await expectFullView(page, run);
      await expect(page).toHaveURL(new RegExp(`/track/${shipment.trackingNumber}$`));
    });

    test('the Spanish page offers it in Spanish, and the e-mail speaks the shipment\'s language', async ({ page }) => {
      const run = tag();
      const shipment = await createShipment(admin, run, { languageCode: 'es' });
      await page.goto(`/es/track/${shipment.trackingNumber}`);
      const send = result(page).getByRole('button', { name: es['track.verify.send_link'] });
      await send.click();
      await expect(result(page).getByRole('status').filter({ hasText: es['track.verify.link_sent'] })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const email = await waitForEmail(
        admin,
        (e) =>
          e.trackingNumber === shipment.trackingNumber &&
          e.toEmail === partiesFor(run).shipper.email &&
          e.template === EmailTemplate.STATUS_UPDATE,
        'the link e-mailed to the shipper',
      );
      expect(email.templateParams.language).toBe('es');
      expect(email.templateParams.tracking_url).toContain(`/es/track/${shipment.trackingNumber}?access=`);
    });
  });
}
