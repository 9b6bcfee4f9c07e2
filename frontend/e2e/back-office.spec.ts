// The shipments list as an office uses it: figures that lead into the list, filters kept in
// the address, a bulk status change with its report, and the CSV export.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN_PATH, signIn } from './support/admin';
import { expectFiguresReadAfter, figure } from './support/figures';
import { adminRpc } from './support/rpc';
import { createShipment, dayFromToday } from './support/tracking';

function tag(): string {
  return `bo${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

test('the late figure leads into the list, and the filter survives a reload', async ({ page, request, baseURL }) => {
  const run = tag();
  const admin = await adminRpc(request, baseURL!);
  await createShipment(admin, run, { origin: `Porto ${run}`, expectedDeliveryDate: dayFromToday(-3) });
  await signIn(page);
  const figures = page.getByRole('region', { name: 'Figures' });
  const late = figures.getByRole('link', { name: /Late/ });
  await expect(late).toBeVisible();
  await expect(figures.getByRole('link', { name: /Pending/ })).toBeVisible();
  await expect(page.getByText(/Last 30 days: \d+ created, \d+ delivered/)).toBeVisible();
  await late.click();
  await expect(page).toHaveURL(/[?&]late=1/);
  await expect(page.getByLabel('Late only')).toBeChecked();
  await page.getByLabel('Search').fill(run);
  await expect(page).toHaveURL(new RegExp(`q=${run}`));
  await expect(page.getByTestId('shipment-count')).toHaveText('1 shipment');
  await page.reload();
  await expect(page.getByLabel('Search')).toHaveValue(run);
  await expect(page.getByLabel('Late only')).toBeChecked();
  await expect(page.getByTestId('shipment-count')).toHaveText('1 shipment');
  // The address changes in a transition: the box follows a moment later.
  await page.getByLabel('Late only').click();
  await expect(page.getByLabel('Late only')).not.toBeChecked();
  await expect(page).not.toHaveURL(/late=/);
  await page.getByLabel('Sort').selectOption({ label: 'Expected delivery, earliest first' });
  await expect(page).toHaveURL(/sort=expected_delivery_date/);
});

test('a bulk status change reports what changed, and the export has the same rows', async ({
  page,
  request,
  baseURL,
}) => {
  const run = tag();
  const admin = await adminRpc(request, baseURL!);
  const made = [];
  for (let i = 0; i < 3; i += 1) made.push(await createShipment(admin, run, { origin: `Porto ${run}` }));
  await signIn(page);
  await page.getByLabel('Search').fill(run);
  await expect(page.getByTestId('shipment-count')).toHaveText('3 shipments');
  await page.getByRole('checkbox', { name: 'Select every shipment on this page' }).check();
  const bar = page.getByRole('region', { name: 'Selected shipments' });
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Update Status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Update Status of 3 shipments' });
  await dialog.getByRole('button', { name: 'Update 3 shipments' }).click();
  await expect(dialog.locator('#bulk-status-error')).toHaveText('Choose a status');
  await dialog.getByLabel('Status').selectOption({ index: 4 });
  await dialog.getByLabel('Current Location').fill('Hub, Porto');
  await dialog.getByLabel('Remarks').fill(`Strike ${run}`);
  await dialog.getByRole('button', { name: 'Update 3 shipments' }).click();
  const report = page.getByRole('dialog', { name: 'Bulk update: report' });
  await expect(report.getByRole('status')).toHaveText('3 shipments updated. None failed.');
  await report.getByRole('button', { name: 'Done' }).click();
  for (const s of made) {
    const now = await admin.shipments.getShipment({ id: s.id });
    expect(now.history.at(-1)?.remarks).toBe(`Strike ${run}`);
  }

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const text = readFileSync(file, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true); // UTF-8 with a BOM, for spreadsheets
  const lines = text.slice(1).trim().split('\n');
  expect(lines[0]).toMatch(/^tracking_number,status,shipper_name,/);
  expect(lines).toHaveLength(4);
  for (const s of made) expect(lines.some((line) => line.startsWith(`${s.trackingNumber},`))).toBe(true);
  await page.goto(ADMIN_PATH);
});

test('an edit in the list refreshes the figures without a reload', async ({ page, request, baseURL }) => {
  const run = tag();
  const admin = await adminRpc(request, baseURL!);
  const shipment = await createShipment(admin, run, { origin: `Porto ${run}`, expectedDeliveryDate: dayFromToday(-3) });
  await signIn(page);
  const lateValue = page.getByRole('region', { name: 'Figures' }).getByRole('link', { name: /Late/ }).locator('.figure-value');
  await expect(lateValue).toBeVisible();
  await page.getByLabel('Search').fill(run);
  await expect(page.getByTestId('shipment-count')).toHaveText('1 shipment');

  await page.getByRole('button', { name: `Edit shipment ${shipment.trackingNumber}` }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Shipment Details' });
  const due = dayFromToday(10);
  const pad = (n: number) => String(n).padStart(2, '0');
  await modal.getByLabel('Expected Delivery Date').fill(`${due.year}-${pad(due.month)}-${pad(due.day)}`);
  // No longer late once saved: the Late figure shows what a read sent after the edit returned.
  await expectFiguresReadAfter(
    page,
    async () => {
      await modal.getByRole('button', { name: 'Update', exact: true }).click();
      await expect(modal).toBeHidden();
    },
    async () => (await lateValue.textContent())!,
    (statistics) => figure(statistics.late),
  );
  expect((await admin.shipments.getShipment({ id: shipment.id })).expectedDeliveryDate?.day).toBe(due.day);
});
