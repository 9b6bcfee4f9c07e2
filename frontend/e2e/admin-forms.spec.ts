// The back office's forms and dialogs as a careful user meets them, at a phone's and a desktop's
// width: unsaved changes are not thrown away without a word, Delete names what it deletes in the
// product's own dialog, an emptied field is cleared, a wrong date range is said in words and
// never sent, the package figures follow the packages, and the bulk dialog fits.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openFilters, signIn, SHIPMENT_SERVICE_PATH } from './support/admin';
import { adminRpc } from './support/rpc';
import { createShipment } from './support/tracking';
import { keepScreenshot } from './support/visual';
import { flowAt } from './support/env';

const SHOTS = process.env.SHOTS_DIR ?? join(import.meta.dirname, '..', 'test-results', 'screenshots');

function tag(): string {
  return `af${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

function row(page: Page, trackingNumber: string): Locator {
  return page.getByRole('region', { name: 'Shipments' }).locator(`tr[data-tracking-number="${trackingNumber}"]`);
}

async function listed(page: Page, run: string, count: number): Promise<void> {
  await page.getByLabel('Search', { exact: true }).fill(run);
  await expect(page.getByTestId('shipment-count')).toHaveText(count === 1 ? '1 shipment' : `${count} shipments`);
}

/** Fails the test on any browser-native dialog (alert, confirm, prompt). */
function refuseNativeDialogs(page: Page): void {
  page.on('dialog', (d) => {
    void d.dismiss();
    throw new Error(`a native ${d.type()} appeared: ${d.message()}`);
  });
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('a dialog with unsaved changes asks before Escape, a click outside or Cancel discards them', async ({ page }) => {
      refuseNativeDialogs(page);
      await signIn(page);
      const open = page.getByRole('button', { name: 'Create Shipment' });
      const modal = page.getByRole('dialog', { name: 'Create Shipment' });
      const ask = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });

      // Nothing typed: Escape closes at once.
      await open.click();
      await expect(modal).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();

      await open.click();
      const origin = modal.getByRole('group', { name: 'Shipment', exact: true }).getByLabel('Origin');
      await origin.fill('Half-typed origin');
      // Escape, twice (Chromium lets a second Escape close a dialog whose first was refused).
      for (let i = 0; i < 2; i += 1) {
        await origin.focus();
        await page.keyboard.press('Escape');
        await expect(ask).toBeVisible();
        await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
        await ask.getByRole('button', { name: 'Keep editing' }).click();
        await expect(ask).toBeHidden();
        await expect(origin).toHaveValue('Half-typed origin');
      }
      // A click outside the dialog, on its backdrop.
      await page.mouse.click(3, viewport.height - 3);
      await expect(ask).toBeVisible();
      await keepScreenshot(page, join(SHOTS, `discard-confirm-${viewport.width}.png`));
      await page.keyboard.press('Escape');
      await expect(ask).toBeHidden();
      await expect(modal).toBeVisible();
      // Cancel, then discard.
      await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await expect(modal).toBeHidden();
      await open.click();
      await expect(origin).toHaveValue('');
    });

    test('the bulk status dialog asks too, uses the whole width and clips no button', async ({ page, request, baseURL }) => {
      refuseNativeDialogs(page);
      const run = tag();
      const admin = await adminRpc(request, baseURL!);
      const made = [await createShipment(admin, run, { origin: `Porto ${run}` }), await createShipment(admin, run, { origin: `Porto ${run}` })];
      await signIn(page);
      await listed(page, run, 2);
      for (const s of made) await page.getByRole('checkbox', { name: `Select shipment ${s.trackingNumber}` }).check();
      await page.getByRole('region', { name: 'Selected shipments' }).getByRole('button', { name: 'Update Status' }).click();
      const modal = page.getByRole('dialog', { name: 'Update Status of 2 shipments' });
      await expect(modal).toBeVisible();
      mkdirSync(SHOTS, { recursive: true });
      await keepScreenshot(page, join(SHOTS, `bulk-dialog-${viewport.width}.png`));

      const form = await modal.locator('form').boundingBox();
      for (const label of ['Status', 'Current Location', 'Remarks']) {
        const box = await modal.getByLabel(label, { exact: true }).boundingBox();
        expect(box!.width, `${label} spans the form`).toBeGreaterThan(form!.width * 0.9);
      }
      const dialogBox = await modal.boundingBox();
      for (const button of await modal.locator('.modal-footer button').all()) {
        const fits = await button.evaluate((b) => b.scrollWidth <= b.clientWidth && b.scrollHeight <= b.clientHeight + 1);
        expect(fits, `"${await button.textContent()}" is not clipped`).toBe(true);
        const box = await button.boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(dialogBox!.x);
        expect(box!.x + box!.width).toBeLessThanOrEqual(dialogBox!.x + dialogBox!.width);
      }

      await modal.getByLabel('Current Location').fill('Hub');
      await page.keyboard.press('Escape');
      const ask = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await expect(modal).toBeHidden();
    });

    test("Delete asks in the product's own dialog, naming the shipment", async ({ page, request, baseURL }) => {
      flowAt(page, 390);
      refuseNativeDialogs(page);
      const run = tag();
      const s = await createShipment(await adminRpc(request, baseURL!), run, { origin: `Porto ${run}` });
      await signIn(page);
      await listed(page, run, 1);
      const remove = row(page, s.trackingNumber).getByRole('button', { name: `Delete shipment ${s.trackingNumber}` });
      const confirm = page.getByRole('alertdialog', { name: `Delete shipment ${s.trackingNumber}?` });

      await remove.click();
      await expect(confirm).toContainText('Are you sure you want to delete this shipment?');
      await expect(confirm).toContainText(s.trackingNumber);
      await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await keepScreenshot(page, join(SHOTS, `delete-confirm-${viewport.width}.png`));
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(row(page, s.trackingNumber)).toBeVisible();

      await remove.click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(row(page, s.trackingNumber)).toHaveCount(0);
    });

    test('emptying Comments in Edit clears them; untouched fields stay', async ({ page, request, baseURL }) => {
      flowAt(page, 390);
      const run = tag();
      const admin = await adminRpc(request, baseURL!);
      const s = await createShipment(admin, run, { origin: `Porto ${run}` });
      expect(s.comments).not.toBe('');
      await signIn(page);
      await listed(page, run, 1);
      await row(page, s.trackingNumber).getByRole('button', { name: `Edit shipment ${s.trackingNumber}` }).click();
      const modal = page.getByRole('dialog', { name: 'Edit Shipment Details' });
      await expect(modal).not.toContainText('Leave a field empty');
      await modal.getByLabel('Comments').fill('');
      const sent = page.waitForRequest((r) => r.url().includes(`${SHIPMENT_SERVICE_PATH}UpdateShipment`));
      await modal.getByRole('button', { name: 'Update', exact: true }).click();
      await sent;
      await expect(modal).toBeHidden();
      const after = await admin.shipments.getShipment({ id: s.id });
      expect(after.comments).toBe('');
      expect([after.carrier, after.origin, after.packageCount]).toEqual([s.carrier, s.origin, s.packageCount]);
    });

    test('"Created to" before "Created from" is said next to the field and never sent', async ({ page }) => {
      flowAt(page, 1280);
      await signIn(page);
      await expect(page.getByTestId('shipment-count')).toBeVisible();
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('ListShipments') || r.url().includes('/exports/')) sent.push(r.url());
      });
      await openFilters(page);
      await page.getByLabel('Created from').fill('2026-11-20');
      await page.getByLabel('Created to').fill('2026-11-10');
      const to = page.getByLabel('Created to');
      await expect(to).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#shipment-to-error')).toHaveText(
        '"Created to" is before "Created from": choose a day on or after it.',
      );
      await expect(page.getByRole('button', { name: 'Refresh' })).toBeDisabled();
      sent.length = 0;
      const download = page.waitForEvent('download', { timeout: 1500 }).catch(() => null);
      const exportLink = page.getByRole('link', { name: 'Export CSV' });
      await expect(exportLink).toHaveAttribute('aria-disabled', 'true');
      await exportLink.click({ force: true });
      expect(await download).toBeNull();
      await keepScreenshot(page, join(SHOTS, `date-range-${viewport.width}.png`));
      expect(sent).toEqual([]);

      // A right range is sent again.
      const answered = page.waitForResponse((r) => r.url().includes('ListShipments'));
      await to.fill('2026-11-30');
      await answered;
      await expect(page.locator('#shipment-to-error')).toHaveCount(0);
    });

    test('a refused export is said in words, never downloaded as a file', async ({ page }) => {
      flowAt(page, 390);
      await signIn(page);
      await page.route('**/exports/shipments.csv**', (route) =>
        route.fulfill({ status: 403, contentType: 'text/plain', body: 'You are not permitted to do this.' }),
      );
      const download = page.waitForEvent('download', { timeout: 1500 }).catch(() => null);
      await page.getByRole('link', { name: 'Export CSV' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'You are not permitted to export shipments.' })).toBeVisible();
      expect(await download).toBeNull();
    });

    test('the package count and the weight follow the packages in the form', async ({ page, request, baseURL }) => {
      flowAt(page, 1280);
      const run = tag();
      await signIn(page);
      await page.getByRole('button', { name: 'Create Shipment' }).click();
      const modal = page.getByRole('dialog', { name: 'Create Shipment' });
      const details = modal.getByRole('group', { name: 'Shipment', exact: true });
      const count = details.getByLabel('Package Count');
      const weight = details.getByLabel('Weight (kg)');
      await expect(count).toHaveAttribute('readonly', '');
      // No package weights yet: the weight is typed.
      await expect(weight).toBeEditable();
      await weight.fill('100');
      await modal.getByRole('button', { name: 'Add package' }).click();
      const first = modal.getByRole('group', { name: 'Package 1', exact: true });
      const second = modal.getByRole('group', { name: 'Package 2', exact: true });
      await first.getByLabel('Quantity').fill('2');
      await first.getByLabel('Weight (kg)').fill('12.5');
      await second.getByLabel('Weight (kg)').fill('15');
      await expect(count).toHaveValue('3');
      await expect(weight).toHaveValue('40');
      await expect(weight).not.toBeEditable();
      await expect(modal.getByText('The total of the packages below.')).toBeVisible();
      await keepScreenshot(page, join(SHOTS, `package-figures-${viewport.width}.png`));

      // The API applies the same rule: 7 packages of 100 kg typed, 2 pieces of 12.5 kg given.
      const made = await createShipment(await adminRpc(request, baseURL!), run, { packageCount: 7, weightKg: 100 });
      expect([made.packageCount, made.weightKg]).toEqual([2, 25]);
    });
  });
}
