import { expect, type Locator, type Page } from '@playwright/test';
import { toastWithText } from './track-page';

export const ADMIN_PATH = '/administration_and_development';
export const LOGIN_PATH = '/administration_and_development/login';
export const USERS_PATH = '/administration_and_development/users';

export const LOGIN_SUCCESS = 'Login successful';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const TOO_MANY_ATTEMPTS = 'Too many failed attempts. Please try again later';
export const SESSION_SERVICE_PATH = '/logistics.v1.SessionService/';
export const SHIPMENT_SERVICE_PATH = '/logistics.v1.ShipmentService/';

export function adminEmail(): string {
  return required('E2E_ADMIN_EMAIL');
}

export function adminPassword(): string {
  return required('E2E_ADMIN_PASSWORD');
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through playwright.config.ts`);
  return value;
}

export function loginError(page: Page): Locator {
  return page.getByRole('main').getByTestId('login-error');
}

/** Fills the login form and submits it; resolves once the gateway answered. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const answered = page.waitForResponse((r) => r.url().includes(`${SESSION_SERVICE_PATH}CreateSession`));
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await answered;
}

/** Signs in on the login page and waits for the dashboard. */
export async function signIn(page: Page, email = adminEmail(), password = adminPassword()): Promise<void> {
  await page.goto(LOGIN_PATH);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
  await submitLogin(page, email, password);
  await expect(toastWithText(page, LOGIN_SUCCESS)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${ADMIN_PATH}$`));
}


/** Opens the shipments list's filters where they are folded (a phone); wide screens show them. */
export async function openFilters(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Filters/ });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
}

/** Types `text` into the shipments list's Search and waits for the list of what it finds (the
 * address carries it and no load is under way), so no row of the list before is acted on. */
export async function searchShipments(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search').fill(text);
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === text);
  await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
}
