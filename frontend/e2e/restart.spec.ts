// Links, proofs of identity and sessions outlive a restart: the all-in-one product keeps its
// signing key and its sessions in DATA_DIR, so an e-mailed `?access=` link and a browser's
// verified-party cookie made before a restart still open the full view after it, a signed-in
// admin stays signed in, and a browser signed out before it stays signed out.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN_PATH, LOGIN_PATH, adminEmail, adminPassword, signIn } from './support/admin';
import { startGateway, type RunningGateway } from './support/gateway';
import { adminRpc } from './support/rpc';
import { createShipment, expectFullView, expectLimitedView, partiesFor, sitePath, waitForEmail } from './support/tracking';

test('an e-mailed link and a verified browser still open the full view after a restart', async ({ browser, playwright }) => {
  test.setTimeout(90_000);
  const data = mkdtempSync(join(tmpdir(), 'pse-e2e-restart-'));
  // The gateway under test is another process on its own data; no signing key in its environment.
  const env = { ADMIN_EMAIL: adminEmail(), ADMIN_PASSWORD: adminPassword(), JWT_SIGNING_KEY: '' };
  let gateway: RunningGateway | undefined;
  try {
    gateway = await startGateway(env, data);
    const request = await playwright.request.newContext();
    const admin = await adminRpc(request, gateway.url);
    const run = `restart${Date.now().toString(36).slice(-5)}`;
    const shipment = await createShipment(admin, run);
    const email = await waitForEmail(
      admin,
      (e) => e.trackingNumber === shipment.trackingNumber && e.toEmail === partiesFor(run).receiver.email,
      "the receiver's e-mail",
    );
    const link = sitePath(email.templateParams.tracking_url);
    expect(link).toContain('?access=');
    await request.dispose();

    // A receiver opens the link before the restart: full view, and the browser keeps a proof.
    const receiver = await browser.newContext();
    const page = await receiver.newPage();
    await page.goto(`${gateway.url}${link}`);
    await expectFullView(page, run);

    await gateway.stop();
    gateway = await startGateway(env, data);

    // The same browser, after the restart: its proof still holds.
    await page.goto(`${gateway.url}/track/${shipment.trackingNumber}`);
    await expectFullView(page, run);
    await receiver.close();

    // A new browser: the e-mailed link still opens the full view; without it, the limited view.
    const stranger = await browser.newPage();
    await stranger.goto(`${gateway.url}/track/${shipment.trackingNumber}`);
    await expectLimitedView(stranger, shipment, run);
    await stranger.goto(`${gateway.url}${link}`);
    await expectFullView(stranger, run);
    await stranger.close();
  } finally {
    await gateway?.stop();
    rmSync(data, { recursive: true, force: true });
  }
});

test('a signed-in admin stays signed in across a restart, and a browser signed out before it stays out', async ({
  browser,
}) => {
  // Two sign-ins (a password hashed twice) and two gateway starts on 2 cores.
  test.slow();
  const data = mkdtempSync(join(tmpdir(), 'pse-e2e-restart-'));
  const env = { ADMIN_EMAIL: adminEmail(), ADMIN_PASSWORD: adminPassword(), JWT_SIGNING_KEY: '' };
  const account = `${ADMIN_PATH}/account`;
  let gateway: RunningGateway | undefined;
  try {
    gateway = await startGateway(env, data);
    // The restarted product answers at the same address, as it would for its users.
    const port = new URL(gateway.url).port;
    const here = await browser.newContext({ baseURL: gateway.url });
    const page = await here.newPage();
    await signIn(page);
    const there = await browser.newContext({ baseURL: gateway.url });
    const other = await there.newPage();
    await signIn(other);
    await page.goto(account);
    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByText('Signed out 1 other session')).toBeVisible();

    await gateway.stop();
    gateway = await startGateway({ ...env, PORT: port }, data);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${account}$`));
    await expect(sessions).toHaveCount(1);
    await expect(sessions.first()).toContainText('This browser');
    await other.goto(ADMIN_PATH);
    await expect(other).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
    await there.close();
    await here.close();
  } finally {
    await gateway?.stop();
    rmSync(data, { recursive: true, force: true });
  }
});
