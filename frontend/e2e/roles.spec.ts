// Each role sees the screens its permissions allow, and the server refuses the rest.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Code, ConnectError } from '@connectrpc/connect';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { ADMIN_PATH, USERS_PATH, searchShipments, signIn } from './support/admin';
import { adminRpc, rpc } from './support/rpc';
import { createShipment } from './support/tracking';
import { ShipmentStatus } from '../src/gen/logistics/v1/shipment_pb';

const PASSWORD = 'a-Staff-Passw0rd-2026';
const AUDIT_PATH = '/administration_and_development/audit';

/** A new user with `role`, made by the first admin; a fresh e-mail per call. */
async function staffMember(request: APIRequestContext, baseURL: string, role: Role, name: string): Promise<string> {
  const admin = await adminRpc(request, baseURL);
  const email = `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  await admin.users.createUser({ user: { email, name, role }, password: PASSWORD });
  return email;
}

function adminNav(page: Page) {
  return page.getByRole('navigation', { name: 'Admin' });
}

/** The first row of the shipments list (cards on a phone, a table on a desktop). */
function shipmentRow(page: Page, trackingNumber: string) {
  return page.locator(`[data-tracking-number="${trackingNumber}"]`).first();
}

test('an agent finds shipments and updates their status, and nothing more', async ({ page, request, baseURL }) => {
  const email = await staffMember(request, baseURL!, Role.AGENT, 'agent');
  await signIn(page, email, PASSWORD);
  const nav = adminNav(page);
  await expect(nav.getByRole('link', { name: 'Shipments' })).toBeVisible();
  for (const hidden of ['Users', 'Emails', 'Settings', 'Audit']) {
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: 'Create Shipment' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run email test' })).toHaveCount(0);

  const shipment = await createShipment(await adminRpc(request, baseURL!), `agent${Date.now()}`);
  await searchShipments(page, shipment.trackingNumber);
  const row = shipmentRow(page, shipment.trackingNumber);
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: `Edit shipment ${shipment.trackingNumber}` })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Delete shipment ${shipment.trackingNumber}` })).toHaveCount(0);

  await row.getByRole('button', { name: `Update status of shipment ${shipment.trackingNumber}` }).click();
  const dialog = page.getByRole('dialog', { name: `Update Status: ${shipment.trackingNumber}` });
  await dialog.getByLabel('Status').selectOption(String(ShipmentStatus.IN_TRANSIT));
  await dialog.getByLabel('Current Location').fill('Port of Tema');
  await dialog.getByLabel('Remarks').fill('Loaded by the night shift');
  await dialog.getByRole('button', { name: 'Update Status' }).click();
  await expect(dialog).toHaveCount(0);

  await row.getByRole('button', { name: `View shipment ${shipment.trackingNumber}` }).click();
  const view = page.getByRole('dialog', { name: `Shipment ${shipment.trackingNumber}` });
  await expect(view.getByText('Loaded by the night shift')).toBeVisible();
  await expect(view.getByRole('tab', { name: 'Activity' })).toHaveCount(0);
  await view.getByRole('button', { name: 'Close' }).click();

  // The pages it may not see say so, and the server refuses its calls whatever the UI shows.
  await page.goto(USERS_PATH);
  await expect(page.getByRole('heading', { name: 'Not available to your account' })).toBeVisible();
  await page.goto(AUDIT_PATH);
  await expect(page.getByRole('heading', { name: 'Not available to your account' })).toBeVisible();
  const agent = rpc(request, baseURL!);
  await agent.sessions.createSession({ email, password: PASSWORD });
  const refused = await agent.shipments.deleteShipment({ id: shipment.id }).catch((e: unknown) => ConnectError.from(e));
  expect(refused).toBeInstanceOf(ConnectError);
  expect((refused as ConnectError).code).toBe(Code.PermissionDenied);
  expect((refused as ConnectError).rawMessage).toBe('You do not have permission to do this.');
  const stillThere = await (await adminRpc(request, baseURL!)).shipments.getShipment({ id: shipment.id });
  expect(stillThere.trackingNumber).toBe(shipment.trackingNumber);
});

test('a manager runs shipments and reads users but cannot change them', async ({ page, request, baseURL }) => {
  const email = await staffMember(request, baseURL!, Role.MANAGER, 'manager');
  await signIn(page, email, PASSWORD);
  const nav = adminNav(page);
  await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
  for (const hidden of ['Emails', 'Settings', 'Audit']) {
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: 'Create Shipment' })).toBeVisible();
  await nav.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Create User' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: /^Role of / })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Disable user / })).toHaveCount(0);
});

test('an admin changes a role, and the audit log and the Activity tab name who did what', async ({
  page,
  request,
  baseURL,
}) => {
  const email = await staffMember(request, baseURL!, Role.AGENT, 'promoted');
  const shipment = await createShipment(await adminRpc(request, baseURL!), `audit${Date.now()}`);
  const agent = rpc(request, baseURL!);
  await agent.sessions.createSession({ email, password: PASSWORD });
  await agent.shipments.updateShipmentTracking({
    id: shipment.id,
    status: ShipmentStatus.ON_HOLD,
    currentLocation: 'Customs, Tema',
    remarks: 'Papers checked',
  });

  await signIn(page);
  await adminNav(page).getByRole('link', { name: 'Users' }).click();
  const roleSelect = page.getByRole('combobox', { name: `Role of ${email}` });
  await roleSelect.selectOption({ label: 'Manager' });
  await expect(page.getByText(`${email} is now Manager`)).toBeVisible();

  await adminNav(page).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await page.getByLabel('User', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/user=/);
  const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
  await expect(entries.first()).toContainText('Status changed');
  await expect(entries.first()).toContainText(shipment.trackingNumber);
  await expect(entries.first()).toContainText(`By ${email}`);
  await expect(entries.first()).toContainText('(Papers checked)');

  await page.getByLabel('Action').selectOption({ label: 'Role changed' });
  await page.getByLabel('User', { exact: true }).fill('');
  await page.getByLabel('Shipment or user').fill(email);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(entries).toHaveCount(1);
  await entries.first().getByText('fields changed').or(entries.first().getByText('1 field changed')).click();
  await expect(entries.first().getByRole('row', { name: /^role/ })).toContainText('agent');

  // An edit is summed up by the form's labels, never the internal names.
  await (await adminRpc(request, baseURL!)).shipments.updateShipment({
    shipment: { id: shipment.id, product: 'Cocoa beans', comments: 'Handle with care' },
    updateMask: { paths: ['product', 'comments'] },
  });
  await page.getByLabel('Action').selectOption({ label: 'Shipment updated' });
  await page.getByLabel('Shipment or user').fill(shipment.trackingNumber);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText('2 fields changed');
  await expect(entries.first().locator('.audit-changes-fields')).toHaveText(/^(Product, Comments|Comments, Product)$/);
  await expect(entries.first()).not.toContainText('comments');

  await page.goto(ADMIN_PATH);
  await searchShipments(page, shipment.trackingNumber);
  const row = shipmentRow(page, shipment.trackingNumber);
  await row.getByRole('button', { name: `View shipment ${shipment.trackingNumber}` }).click();
  const view = page.getByRole('dialog', { name: `Shipment ${shipment.trackingNumber}` });
  await view.getByRole('tab', { name: 'Activity' }).click();
  await expect(view.getByRole('list', { name: 'Activity' })).toContainText(`By ${email}`);
});

test('a user without office access is told so', async ({ page, request, baseURL }) => {
  const email = await staffMember(request, baseURL!, Role.USER, 'clerk');
  await page.goto('/administration_and_development/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Administrator account required' })).toBeVisible();
});

test('a role taken away shows in the open page within seconds', async ({ page, request, baseURL }) => {
  const email = await staffMember(request, baseURL!, Role.AGENT, 'demoted');
  await signIn(page, email, PASSWORD);
  await expect(adminNav(page).getByRole('link', { name: 'Shipments' })).toBeVisible();
  const admin = await adminRpc(request, baseURL!);
  const { users } = await admin.users.listUsers({ pageSize: 100 });
  const agent = users.find((u) => u.email === email)!;
  await admin.users.updateUser({ user: { id: agent.id, role: Role.USER }, updateMask: { paths: ['role'] } });
  // The page asks every 5 s; the server refuses at once (the gateway rechecks within 2 s).
  await expect(page.getByRole('heading', { name: 'Administrator account required' })).toBeVisible({ timeout: 8_000 });
});
