// The Webhooks screen against a gateway that may reach loopback receivers, and a receiver here
// that records what arrives and checks its signature as the README tells receivers to.
import { expect, test } from '@playwright/test';
import { LOGIN_PATH, LOGIN_SUCCESS, adminEmail, adminPassword, submitLogin } from './support/admin';
import { startGateway, type RunningGateway } from './support/gateway';
import { startWebhookReceiver, verify, type WebhookReceiver } from './support/webhook-receiver';
import { toastWithText } from './support/track-page';
import { flowAt, layoutUnlessDesktop } from './support/env';

let gateway: RunningGateway;
let receiver: WebhookReceiver;

test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
  gateway = await startGateway({
    ADMIN_EMAIL: adminEmail(),
    ADMIN_PASSWORD: adminPassword(),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NOTIFY_POLL_MS: '50',
  });
});

test.afterAll(async () => {
  await gateway?.stop();
  await receiver?.stop();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`Webhooks at ${viewport.width} px`, layoutUnlessDesktop(viewport), () => {
    test.use({ viewport });

    test('an admin adds an endpoint, sees its secret once, tests, rotates, disables and deletes it', async ({ page }) => {
      flowAt(page, 1280);
      const name = `ERP ${viewport.width}`;
      const path = `/hooks/${viewport.width}`;
      await page.goto(`${gateway.url}${LOGIN_PATH}`);
      await submitLogin(page, adminEmail(), adminPassword());
      await expect(toastWithText(page, LOGIN_SUCCESS)).toBeVisible();
      await page.goto(`${gateway.url}/administration_and_development/webhooks`);
      await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
      await expect(page).toHaveTitle(/Webhooks/);

      const form = page.getByRole('form', { name: 'Add an endpoint' });
      const url = form.getByLabel('URL');
      await url.fill('file:///etc/passwd');
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(form.getByText('must start with https:// or http://')).toBeVisible();
      await expect(url).toHaveAttribute('aria-invalid', 'true');

      await url.fill(`${receiver.url}${path}`);
      await form.getByRole('group', { name: 'Events' }).getByLabel('Shipment updated').uncheck();
      await form.getByLabel('Description (optional)').fill(name);
      await form.getByRole('button', { name: 'Add endpoint' }).click();
      await expect(toastWithText(page, 'Webhook endpoint added')).toBeVisible();
      const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const overflowWithSecret = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflowWithSecret, 'the secret and its URL wrap inside the page').toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect(page.getByTestId('webhook-secret')).toBeHidden();

      const card = page.locator('.webhook-item', { hasText: name });
      await expect(card.getByText('Enabled', { exact: true })).toBeVisible();
      await expect(card).toContainText('Shipment created, Status changed, Delivered, Shipment deleted');

      await card.getByRole('button', { name: `Send test event to ${name}` }).click();
      await expect(toastWithText(page, 'Test event queued')).toBeVisible();
      const deliveries = card.getByRole('region', { name: `Deliveries to ${receiver.url}${path}` });
      await expect(async () => {
        await deliveries.getByRole('button', { name: 'Refresh deliveries' }).click();
        await expect(deliveries.locator('.webhook-delivery').first()).toContainText('Sent', { timeout: 1000 });
      }).toPass({ timeout: 15_000 });
      await expect(deliveries.locator('.webhook-delivery').first()).toContainText('Test event');
      const arrived = receiver.received.filter((d) => d.path === path);
      expect(arrived).toHaveLength(1);
      expect(JSON.parse(arrived[0].body)).toMatchObject({ type: 'webhook.test' });
      expect(verify(secret, arrived[0].headers, arrived[0].body)).toBe(true);

      await deliveries.getByRole('button', { name: 'Resend Test event' }).click();
      await expect(toastWithText(page, 'Delivery queued again')).toBeVisible();
      await expect.poll(() => receiver.received.filter((d) => d.path === path).length, { timeout: 15_000 }).toBe(2);
      const again = receiver.received.filter((d) => d.path === path)[1];
      expect(again.headers['webhook-id']).toBe(arrived[0].headers['webhook-id']);

      await card.getByRole('button', { name: `Rotate secret of ${name}` }).click();
      await page.getByRole('alertdialog', { name: `Rotate the secret of ${name}?` }).getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = (await page.getByTestId('webhook-secret').textContent()) ?? '';
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await expect(card).toContainText('Previous secret signs until');

      await card.getByRole('button', { name: `Disable ${name}` }).click();
      await expect(card.getByText('Disabled', { exact: true })).toBeVisible();
      await expect(card).toContainText('Disabled by an admin');
      await expect(card.getByRole('button', { name: `Send test event to ${name}` })).toBeDisabled();
      await card.getByRole('button', { name: `Enable ${name}` }).click();
      await expect(card.getByText('Enabled', { exact: true })).toBeVisible();

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);

      await card.getByRole('button', { name: `Delete ${name}` }).click();
      // Its own question first: the safe choice keeps the endpoint.
      const question = page.getByRole('alertdialog', { name: `Delete ${name}?` });
      await question.getByRole('button', { name: 'Cancel' }).click();
      await expect(question).toBeHidden();
      await expect(card).toBeVisible();
      await card.getByRole('button', { name: `Delete ${name}` }).click();
      await question.getByRole('button', { name: 'Delete' }).click();
      await expect(toastWithText(page, 'Endpoint deleted')).toBeVisible();
      await expect(card).toBeHidden();
    });
  });
}
