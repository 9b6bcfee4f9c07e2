// Every signed-in user, whatever their role, has an account page: their own password, the
// browsers signed in as them (with "Sign out everywhere else"), the theme and the language of
// the page and the public site. Checked as an agent (no Users page) on a phone and a desktop,
// and in Arabic, right to left, inside the English back office.
import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { SCREENSHOTS, keepScreenshot } from './support/visual';
import { LOGIN_PATH, USERS_PATH, signIn } from './support/admin';
import { adminRpc } from './support/rpc';
import { flowAt } from './support/env';

const PASSWORD = 'a-Staff-Passw0rd-2026';
const NEW_PASSWORD = 'a-Brand-New-Passw0rd-2026';
const ACCOUNT_PATH = '/administration_and_development/account';

async function agent(request: APIRequestContext, baseURL: string): Promise<string> {
  const admin = await adminRpc(request, baseURL);
  const email = `agent-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await admin.users.createUser({ user: { email, name: 'Ama Agent', role: Role.AGENT }, password: PASSWORD });
  return email;
}

function sessionItems(page: Page) {
  return page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
}

async function expectNoSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`an agent changes their password and signs out their other browser at ${viewport.width} px`, async ({
    browser,
    request,
    baseURL,
  }) => {
    flowAt(viewport, 1280);
    // Two browsers, two sign-ins and a password hashed twice: more than the usual 30 s on 2 cores.
    test.slow();
    const email = await agent(request, baseURL!);
    const here = await browser.newContext({ viewport, baseURL });
    const page = await here.newPage();
    await signIn(page, email, PASSWORD);

    // The account page is one click away, from the user's own address in the admin bar.
    await page.getByTestId('admin-user-email').click();
    await expect(page).toHaveURL(new RegExp(`${ACCOUNT_PATH}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible();
    await expect(sessionItems(page)).toHaveCount(1);
    await expect(sessionItems(page).first()).toContainText('This browser');
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();

    // A wrong current password is said next to that field, and the agent stays signed in.
    await page.getByLabel('Current Password').fill('not my password at all');
    await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.locator('#current-password-error')).toHaveText('Incorrect password');
    await expect(page.getByLabel('Current Password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(new RegExp(`${ACCOUNT_PATH}$`));

    // A mismatched confirmation never reaches the server.
    await page.getByLabel('Current Password').fill(PASSWORD);
    await page.getByLabel('Confirm New Password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.locator('#confirm-password-error')).toHaveText('The new passwords do not match');

    await page.getByLabel('Confirm New Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();
    await expect(page.getByLabel('Current Password')).toHaveValue('');

    // Another browser signs in with the new password (the old one no longer works) ...
    const there = await browser.newContext({ viewport, baseURL });
    const other = await there.newPage();
    await signIn(other, email, NEW_PASSWORD);

    // ... is listed here, and "Sign out everywhere else" ends it.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(sessionItems(page)).toHaveCount(2);
    await expect(sessionItems(page).nth(1)).toContainText(/Chrome on \w+/);
    await expect(sessionItems(page).nth(1).getByRole('button', { name: /^Sign out Chrome on \w+, signed in / })).toBeVisible();
    await expectNoSideways(page);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await keepScreenshot(page, `${SCREENSHOTS}/account-${viewport.width}.png`, { fullPage: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await keepScreenshot(page, `${SCREENSHOTS}/account-top-${viewport.width}.png`);

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByText('Signed out 1 other session')).toBeVisible();
    await expect(sessionItems(page)).toHaveCount(1);
    await other.reload();
    await expect(other).toHaveURL(new RegExp(`${LOGIN_PATH}$`));
    // This browser is still signed in.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible();

    // The theme: the same choice as the floating toggle, kept for the user.
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await keepScreenshot(page, `${SCREENSHOTS}/account-dark-${viewport.width}.png`, { fullPage: true });
    await page.getByRole('radio', { name: 'Same as this device' }).check();
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);

    // The language: this page's and the public site's, remembered in this browser, with a link to
    // the site in it.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await expect(page.getByRole('heading', { level: 1, name: 'Tu cuenta' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Abrir el sitio público en Español' })).toHaveAttribute('href', '/es');

    await there.close();
    await here.close();
  });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test(`the account page reads in Arabic, right to left, once Arabic is chosen, at ${viewport.width} px`, async ({ page }) => {
      await signIn(page);
      await page.goto(ACCOUNT_PATH);
      await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible();
      await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');

      const account = page.locator('.account-page');
      await expect(page.getByRole('heading', { level: 1, name: 'حسابك' })).toBeVisible();
      await expect(account).toHaveAttribute('dir', 'rtl');
      await expect(account).toHaveAttribute('lang', 'ar');
      for (const heading of ['تغيير كلمة المرور', 'أين سجّلت الدخول', 'اللغة والمظهر']) {
        await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
      }
      await expect(page.getByRole('combobox', { name: 'اللغة' })).toHaveValue('ar');
      await expect(page.getByRole('link', { name: 'افتح الموقع العام: العربية' })).toHaveAttribute('href', '/ar');
      // The form's own checks speak Arabic too.
      await page.getByRole('button', { name: 'تغيير كلمة المرور' }).click();
      await expect(page.locator('#current-password-error')).toHaveText('أدخل كلمة المرور الحالية');
      await expect(account).not.toContainText(/Change Your Password|Where You Are Signed In|Language and Theme|Sign out/);
      // Laid out right to left: the heading starts at the right edge, the address reads in order.
      const [heading, box] = [await page.getByRole('heading', { level: 1 }).boundingBox(), await account.boundingBox()];
      expect(box!.x + box!.width - (heading!.x + heading!.width), 'the heading against the right edge').toBeLessThanOrEqual(2);
      await expect(account.locator('.email-address')).toHaveAttribute('dir', 'ltr');
      // The rest of the back office stays English, left to right.
      await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
      await expect(page.getByRole('link', { name: 'Shipments' })).toBeVisible();
      await expectNoSideways(page);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await keepScreenshot(page, `${SCREENSHOTS}/account-ar-${viewport.width}.png`, { fullPage: true });

      // Remembered in this browser.
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'حسابك' })).toBeVisible();
      await expect(account).toHaveAttribute('dir', 'rtl');
      await page.getByRole('combobox', { name: 'اللغة' }).selectOption('en');
      await expect(page.getByRole('heading', { level: 1, name: 'Your Account' })).toBeVisible();
      await expect(account).toHaveAttribute('dir', 'ltr');
    });
  });
}

test('the Users page links to the account page instead of holding the password form', async ({ page }) => {
  await signIn(page);
  await page.goto(USERS_PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Change Your Password' })).toHaveCount(0);
  await page.getByRole('link', { name: 'your account page' }).click();
  await expect(page).toHaveURL(new RegExp(`${ACCOUNT_PATH}$`));
  await expect(page.getByRole('heading', { name: 'Change Your Password' })).toBeVisible();
});
