import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { demoShipments } from './support/demo';
import { startGateway, type RunningGateway } from './support/gateway';
import { NOT_FOUND_MESSAGE, toastWithText, trackButton, trackError } from './support/track-page';

test.describe('when the shipments service is down', () => {
  let gateway: RunningGateway;

  test.beforeAll(async () => {
    // Nothing listens on port 9: every lookup fails with Unavailable. A gateway that reaches its
    // services over the network needs the key that signs the service tokens.
    gateway = await startGateway({
      SHIPMENTS_URL: 'http://127.0.0.1:9',
      JWT_SIGNING_KEY: randomBytes(32).toString('base64'),
    });
  });

  test.afterAll(async () => {
    await gateway?.stop();
  });

  test('the track page shows the failed message instead of hanging', async ({ page }) => {
    await page.goto(`${gateway.url}/track/${demoShipments()[0].trackingNumber}`);
    await expect(trackError(page)).toHaveText(NOT_FOUND_MESSAGE, { timeout: 10_000 });
    // Said once, in the page: no toast repeats it.
    await expect(toastWithText(page, NOT_FOUND_MESSAGE)).toHaveCount(0);
    await expect(trackButton(page)).toBeEnabled();
  });
});

test.describe('when a visitor looks up too often', () => {
  let gateway: RunningGateway;

  test.beforeAll(async () => {
    gateway = await startGateway({ TRACKING_RATE_LIMIT_PER_MINUTE: '2' });
  });

  test.afterAll(async () => {
    await gateway?.stop();
  });

  test("the server's rate-limit sentence is shown", async ({ page }) => {
    await page.goto(`${gateway.url}/track/PSE000000001`);
    await expect(trackError(page)).toBeVisible();
    // Search again until the limit answers (the limit is 2 a minute).
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const text = (await trackError(page).textContent())?.trim();
      if (text && text !== NOT_FOUND_MESSAGE) break;
      const answered = page.waitForResponse((r) => r.url().includes('/logistics.v1.ShipmentService/'));
      await trackButton(page).click();
      await answered;
      await expect(trackButton(page)).toBeEnabled();
    }
    const message = (await trackError(page).textContent())?.trim() ?? '';
    expect(message).not.toBe(NOT_FOUND_MESSAGE);
    expect(message.length).toBeGreaterThan(10);
    await expect(toastWithText(page, message)).toHaveCount(0);
  });
});
