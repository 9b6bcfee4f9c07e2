// Proof of delivery: an agent records it while marking a shipment Delivered (the recipient's
// name, a signature drawn on the canvas, a photo); staff see it in the View dialog; the
// shipment's parties see it on the tracking page once verified (or through their e-mail's
// link); nobody else sees it; a user without `deliveries.record` is not offered the inputs.
// At 390 and 1280 px: the agent's flow at both, the others at one (dark colours on the phone).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { Code, ConnectError } from '@connectrpc/connect';
import { ProofOfDeliveryImageKind, ShipmentStatus, type Shipment } from '../src/gen/logistics/v1/shipment_pb';
import { Role } from '../src/gen/logistics/v1/user_pb';
import { searchShipments, signIn } from './support/admin';
import { flowAt, LAYOUT, layoutUnlessDesktop, ONE_MODE, siteUrl } from './support/env';
import { adminRpc, rpc, type Clients } from './support/rpc';
import { toastWithText } from './support/track-page';
import {
  VERIFY_BUTTON,
  VERIFY_LABEL,
  createShipment,
  moveShipment,
  partiesFor,
  result,
  sitePath,
  waitForEmail,
} from './support/tracking';
import { axeOn } from './support/page-checks';

const PASSWORD = 'a-Staff-Passw0rd-2026';
/** A real 40 × 40 PNG (a checkerboard). */
const PNG_40 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAACgAAAAoCAIAAAADnC86AAAARklEQVR42u3WsQ0AIAgEQHpncCVHdC4XsXcDCgzdJd8+Vz4x10ly90jy0w0wGAwuw32n8y4YDAbXYSMBBoP9XEYCDAa3ww9cR/+ZC7SLiQAAAABJRU5ErkJggg==',
  'base64',
);
/** Starts as a PNG does but is none: the browser's check lets it through, the server refuses it. */
const BROKEN_PNG = Buffer.concat([PNG_40.subarray(0, 16), Buffer.from('and then something else entirely')]);
const NOT_AN_IMAGE = Buffer.from('Left with the neighbour at number 12.\n');

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

const RUN = Date.now().toString(36).slice(-6);
let serial = 0;
function tag(): string {
  serial += 1;
  return `pod${RUN}${serial}`;
}

let admin: Clients;
test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: siteUrl() });
  admin = await adminRpc(request, siteUrl());
});

/** A new staff member with `role`, narrowed to `permissions` when given; returns the e-mail. */
async function staffMember(role: Role, name: string, permissions?: string[]): Promise<string> {
  const email = `${name}-${tag()}@example.com`;
  const user = await admin.users.createUser({ user: { email, name, role }, password: PASSWORD });
  if (permissions) {
    await admin.users.updateUser({ user: { id: user.id, permissions }, updateMask: { paths: ['permissions'] } });
  }
  return email;
}

/** A delivered shipment whose proof the admin recorded through the API. */
async function deliveredWithProof(run: string, recipientName: string): Promise<Shipment> {
  const shipment = await createShipment(admin, run);
  await moveShipment(admin, shipment, ShipmentStatus.DELIVERED, 'Amsterdam, Netherlands', 'Handed over');
  return admin.shipments.recordProofOfDelivery({
    id: shipment.id,
    recipientName,
    signaturePng: PNG_40,
    photo: PNG_40,
  });
}

function shipmentRow(page: Page, trackingNumber: string): Locator {
  return page.locator(`[data-tracking-number="${trackingNumber}"]`).first();
}

async function findShipment(page: Page, trackingNumber: string): Promise<Locator> {
  await searchShipments(page, trackingNumber);
  const row = shipmentRow(page, trackingNumber);
  await expect(row).toBeVisible();
  return row;
}

async function openView(page: Page, row: Locator, trackingNumber: string): Promise<Locator> {
  await row.getByRole('button', { name: `View shipment ${trackingNumber}` }).click();
  return page.getByRole('dialog', { name: `Shipment ${trackingNumber}` });
}

/** Signs on the pad with the mouse: two strokes. */
async function drawSignature(page: Page, scope: Locator): Promise<void> {
  const pad = scope.getByRole('img', { name: /^Signature pad/ });
  await pad.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  const box = (await pad.boundingBox())!;
  const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const;
  await page.mouse.move(...at(0.15, 0.6));
  await page.mouse.down();
  await page.mouse.move(...at(0.3, 0.3), { steps: 8 });
  await page.mouse.move(...at(0.45, 0.7), { steps: 8 });
  await page.mouse.move(...at(0.6, 0.35), { steps: 8 });
  await page.mouse.up();
  await page.mouse.move(...at(0.65, 0.5));
  await page.mouse.down();
  await page.mouse.move(...at(0.85, 0.45), { steps: 8 });
  await page.mouse.up();
  await expect(pad).toHaveAccessibleName('Signature pad, signed');
}

/** The image captioned `caption` in `scope`, named `name`: it loads once scrolled into view. */
async function expectImageLoaded(scope: Locator, caption: string, name: string): Promise<Locator> {
  const figure = scope.getByRole('figure', { name: caption });
  await figure.scrollIntoViewIfNeeded();
  const image = figure.getByRole('img', { name });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), {
      message: `the image "${name}" is loaded`,
    })
    .toBeGreaterThan(0);
  return image;
}

/** The width and height in a PNG's header. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function expectNoSideways(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const dialog of await page.locator('dialog[open] .modal-body').all()) {
    const inside = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(inside).toBeLessThanOrEqual(0);
  }
}

/** No serious or critical axe finding (WCAG 2.1 A and AA) inside `selector`. */
async function expectAccessible(page: Page, selector: string): Promise<void> {
  const { violations } = await axeOn(page)
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  test.describe(`proof of delivery (${viewport.name})`, layoutUnlessDesktop(viewport), () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('an agent marks a shipment Delivered with the recipient, a signature and a photo; the View dialog shows them', async ({
      page,
    }) => {
      const run = tag();
      const recipient = `Ana Recipient ${run}`;
      const email = await staffMember(Role.AGENT, 'agent');
      const shipment = await createShipment(admin, run);
      await signIn(page, email, PASSWORD);
      const row = await findShipment(page, shipment.trackingNumber);

      // Not delivered: no proof section in the View dialog.
      let view = await openView(page, row, shipment.trackingNumber);
      await expect(view.getByRole('heading', { name: 'Summary' })).toBeVisible();
      await expect(view.getByRole('region', { name: 'Proof of delivery' })).toHaveCount(0);
      await view.getByRole('button', { name: 'Close' }).click();

      await row.getByRole('button', { name: `Update status of shipment ${shipment.trackingNumber}` }).click();
      const dialog = page.getByRole('dialog', { name: `Update Status: ${shipment.trackingNumber}` });
      const proof = dialog.getByRole('group', { name: 'Proof of delivery' });
      await expect(dialog.getByLabel('Status')).toBeVisible();
      await expect(proof).toHaveCount(0);
      await dialog.getByLabel('Status').selectOption(String(ShipmentStatus.DELIVERED));
      await expect(proof).toBeVisible();
      const signature = proof.getByRole('group', { name: 'Signature' });
      await expect(signature).toHaveAccessibleDescription('Sign with a finger or the mouse');
      await expect(signature.getByRole('button', { name: 'Clear signature' })).toBeVisible();
      const photo = proof.getByLabel('Photo', { exact: true });
      await expect(photo).toHaveAttribute('accept', 'image/jpeg,image/png');
      await expect(photo).toHaveAttribute('capture', 'environment');
      await dialog.getByLabel('Current Location').fill('Amsterdam, Netherlands');

      // A file that is not an image, whatever its name says, is refused at the field.
      await photo.setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: NOT_AN_IMAGE });
      await expect(photo).toHaveAccessibleDescription('Photo: must be a JPEG or PNG image');
      await expect(photo).toHaveAttribute('aria-invalid', 'true');
      await photo.setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: NOT_AN_IMAGE });
      await expect(photo).toHaveAccessibleDescription('Photo: must be a JPEG or PNG image');
      await photo.setInputFiles({ name: 'doorstep.png', mimeType: 'image/png', buffer: PNG_40 });
      await expect(photo).not.toHaveAttribute('aria-invalid', 'true');
      const preview = proof.getByRole('img', { name: 'The photo to be saved' });
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(40);

      // Drawn, cleared, drawn again; a signature without a name is refused and nothing is saved.
      await drawSignature(page, proof);
      await signature.getByRole('button', { name: 'Clear signature' }).click();
      await expect(signature.getByRole('img', { name: 'Signature pad, empty' })).toBeVisible();
      await drawSignature(page, proof);
      await expectNoSideways(page);
      await expectAccessible(page, 'dialog[open]');
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      const name = proof.getByLabel('Recipient name');
      await expect(name).toHaveAccessibleDescription('Recipient name: is required');
      await expect(name).toBeFocused();
      expect((await admin.shipments.getShipment({ id: shipment.id })).status).toBe(ShipmentStatus.PENDING);

      await name.fill(recipient);
      await expect(name).not.toHaveAttribute('aria-invalid', 'true');
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(toastWithText(page, 'Proof of delivery saved')).toBeVisible();

      const stored = await admin.shipments.getShipment({ id: shipment.id });
      expect(stored.status).toBe(ShipmentStatus.DELIVERED);
      expect(stored.proofOfDelivery).toMatchObject({ recipientName: recipient, hasSignature: true, hasPhoto: true, recordedBy: email });
      const signed = await admin.shipments.getProofOfDeliveryImage({
        trackingNumber: shipment.trackingNumber,
        kind: ProofOfDeliveryImageKind.SIGNATURE,
      });
      expect(signed.contentType).toBe('image/png');
      const { width, height } = pngSize(signed.data);
      expect(width).toBeGreaterThan(40);
      expect(height).toBeGreaterThan(20);

      view = await openView(page, row, shipment.trackingNumber);
      const section = view.getByRole('region', { name: 'Proof of delivery' });
      await expect(section).toContainText(`Received by ${recipient}`);
      await expect(section).toContainText(email);
      await expectImageLoaded(section, 'Signature', `Signature of ${recipient}`);
      const shown = await expectImageLoaded(section, 'Photo', 'Photo of the delivery');
      expect(await shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
      await expect(section.getByRole('button', { name: 'Replace proof of delivery' })).toBeVisible();
      await expectNoSideways(page);
      await expectAccessible(page, '.proof-section');
    });

    test('a proof the server refuses leaves the status changed, says so, and is saved on the second try; Replace from the View dialog', async ({
      page,
    }) => {
      flowAt(page, 1280);
      const run = tag();
      const email = await staffMember(Role.AGENT, 'agent');
      const shipment = await createShipment(admin, run);
      await signIn(page, email, PASSWORD);
      const row = await findShipment(page, shipment.trackingNumber);
      await row.getByRole('button', { name: `Update status of shipment ${shipment.trackingNumber}` }).click();
      const dialog = page.getByRole('dialog', { name: `Update Status: ${shipment.trackingNumber}` });
      await dialog.getByLabel('Status').selectOption(String(ShipmentStatus.DELIVERED));
      const proof = dialog.getByRole('group', { name: 'Proof of delivery' });
      await proof.getByLabel('Recipient name').fill(`Bo ${run}`);
      const photo = proof.getByLabel('Photo', { exact: true });
      await photo.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: BROKEN_PNG });
      await dialog.getByRole('button', { name: 'Update Status' }).click();

      await expect(dialog.getByRole('alert')).toContainText('The status was updated, but the proof of delivery was not saved.');
      await expect(photo).toHaveAccessibleDescription(/^Photo: /);
      await expect(photo).toHaveAttribute('aria-invalid', 'true');
      let stored = await admin.shipments.getShipment({ id: shipment.id });
      expect(stored.status).toBe(ShipmentStatus.DELIVERED);
      expect(stored.proofOfDelivery).toBeUndefined();
      await expect(dialog.getByText('Status updated to Delivered')).toBeVisible();

      await photo.setInputFiles({ name: 'doorstep.png', mimeType: 'image/png', buffer: PNG_40 });
      await dialog.getByRole('button', { name: 'Save proof of delivery' }).click();
      await expect(dialog).toHaveCount(0);
      stored = await admin.shipments.getShipment({ id: shipment.id });
      expect(stored.proofOfDelivery).toMatchObject({ recipientName: `Bo ${run}`, hasSignature: false, hasPhoto: true });
      expect(stored.history.filter((entry) => entry.status === ShipmentStatus.DELIVERED)).toHaveLength(1);

      // Replace it from the View dialog: the name alone this time.
      const view = await openView(page, row, shipment.trackingNumber);
      const section = view.getByRole('region', { name: 'Proof of delivery' });
      await expect(section).toContainText(`Received by Bo ${run}`);
      await expectImageLoaded(section, 'Photo', 'Photo of the delivery');
      await section.getByRole('button', { name: 'Replace proof of delivery' }).click();
      const record = page.getByRole('dialog', { name: `Replace proof of delivery: ${shipment.trackingNumber}` });
      await record.getByRole('button', { name: 'Save proof of delivery' }).click();
      await expect(record.getByLabel('Recipient name')).toHaveAccessibleDescription('Recipient name: is required');
      await record.getByLabel('Recipient name').fill(`Cy ${run}`);
      await expectNoSideways(page);
      await record.getByRole('button', { name: 'Save proof of delivery' }).click();
      await expect(record).toHaveCount(0);
      await expect(view).toBeVisible();
      await expect(section).toContainText(`Received by Cy ${run}`);
      await expect(section).toContainText('No signature or photo was recorded.');
      // Escape in the View dialog closes it (the Record dialog closed cleanly).
      await page.keyboard.press('Escape');
      await expect(view).toHaveCount(0);
    });

    test('a party sees the proof once verified, or through their e-mail link; a visitor never', async ({ page, browser }) => {
      flowAt(page, 1280);
      const run = tag();
      const recipient = `Dee Doorstep ${run}`;
      const shipment = await deliveredWithProof(run, recipient);
      const imageCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('GetProofOfDeliveryImage')) imageCalls.push(request.url());
      });

      await page.goto(`/track/${shipment.trackingNumber}`);
      const main = result(page);
      await expect(main.getByRole('heading', { level: 2, name: shipment.trackingNumber, exact: true })).toBeVisible();
      await expect(main.getByRole('textbox', { name: VERIFY_LABEL })).toBeVisible();
      await expect(main.getByRole('heading', { name: 'Proof of delivery' })).toHaveCount(0);
      await expect(main).not.toContainText(recipient);
      expect(imageCalls).toEqual([]);
      // The server refuses the images to this visitor too.
      const refused = await rpc(page.context().request, siteUrl())
        .shipments.getProofOfDeliveryImage({ trackingNumber: shipment.trackingNumber, kind: ProofOfDeliveryImageKind.PHOTO })
        .catch((e: unknown) => ConnectError.from(e));
      expect(refused).toBeInstanceOf(ConnectError);
      expect((refused as ConnectError).code).toBe(Code.NotFound);

      await main.getByRole('textbox', { name: VERIFY_LABEL }).fill(partiesFor(run).receiver.email);
      await main.getByRole('button', { name: VERIFY_BUTTON }).click();
      const card = main.getByRole('region', { name: 'Proof of delivery' });
      await expect(card).toContainText(`Received by ${recipient} on `);
      await expectImageLoaded(card, 'Signature', `Signature of ${recipient}`);
      await expectImageLoaded(card, 'Photo', 'Photo of the delivery');
      await expectNoSideways(page);
      await expectAccessible(page, '.proof-card');

      // The receiver's e-mail link, in a browser that never verified.
      const mail = await waitForEmail(
        admin,
        (e) => e.trackingNumber === shipment.trackingNumber && e.toEmail === partiesFor(run).receiver.email && !!e.templateParams.tracking_url?.includes('access='),
        "the receiver's e-mail with its link",
      );
      const fresh = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, serviceWorkers: 'block' });
      const linked = await fresh.newPage();
      await linked.goto(sitePath(mail.templateParams.tracking_url));
      const linkedCard = result(linked).getByRole('region', { name: 'Proof of delivery' });
      await expect(linkedCard).toContainText(`Received by ${recipient}`);
      await expectImageLoaded(linkedCard, 'Photo', 'Photo of the delivery');
      await fresh.close();
    });

    test('in dark mode the proof and its inputs keep their contrast', { tag: LAYOUT }, async ({ browser }) => {
      // Colours, the same at every width: read once, on the phone (the first test has the light
      // ones at both widths).
      test.skip(viewport.width !== 390, 'colours, read on the phone');
      const run = tag();
      const shipment = await deliveredWithProof(run, `Fay ${run}`);
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, colorScheme: 'dark', serviceWorkers: 'block' });
      const page = await context.newPage();
      await page.goto(`/track/${shipment.trackingNumber}`);
      await result(page).getByRole('textbox', { name: VERIFY_LABEL }).fill(partiesFor(run).receiver.email);
      await result(page).getByRole('button', { name: VERIFY_BUTTON }).click();
      const card = result(page).getByRole('region', { name: 'Proof of delivery' });
      await expectImageLoaded(card, 'Signature', `Signature of Fay ${run}`);
      await expectAccessible(page, '.proof-card');

      await signIn(page);
      const row = await findShipment(page, shipment.trackingNumber);
      const view = await openView(page, row, shipment.trackingNumber);
      const section = view.getByRole('region', { name: 'Proof of delivery' });
      await expectImageLoaded(section, 'Photo', 'Photo of the delivery');
      await expectAccessible(page, '.proof-section');
      await section.getByRole('button', { name: 'Replace proof of delivery' }).click();
      const record = page.getByRole('dialog', { name: `Replace proof of delivery: ${shipment.trackingNumber}` });
      await record.getByRole('button', { name: 'Save proof of delivery' }).click();
      await expect(record.getByLabel('Recipient name')).toHaveAccessibleDescription('Recipient name: is required');
      // The Replace dialog fits the phone (the refused-proof flow that also opens it runs at 1280 px).
      await expectNoSideways(page);
      await expectAccessible(page, 'dialog[open]:last-of-type');
      await context.close();
    });

    test('without deliveries.record there is no proof to fill in, and no Record button', { tag: ONE_MODE }, async ({ page }) => {
      flowAt(page, 390);
      const run = tag();
      const email = await staffMember(Role.AGENT, 'narrowed', ['shipments.read', 'shipments.track']);
      const pending = await createShipment(admin, run);
      const delivered = await deliveredWithProof(`${run}d`, `Eve ${run}`);
      await signIn(page, email, PASSWORD);

      let row = await findShipment(page, pending.trackingNumber);
      await row.getByRole('button', { name: `Update status of shipment ${pending.trackingNumber}` }).click();
      const dialog = page.getByRole('dialog', { name: `Update Status: ${pending.trackingNumber}` });
      await dialog.getByLabel('Status').selectOption(String(ShipmentStatus.DELIVERED));
      await expect(dialog.getByLabel('Current Location')).toBeVisible();
      await expect(dialog.getByRole('group', { name: 'Proof of delivery' })).toHaveCount(0);
      await expect(dialog.getByLabel('Recipient name')).toHaveCount(0);
      // The status was changed, so Cancel asks before dropping it.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
      await expect(dialog).toBeHidden();

      // They still read it.
      row = await findShipment(page, delivered.trackingNumber);
      const view = await openView(page, row, delivered.trackingNumber);
      const section = view.getByRole('region', { name: 'Proof of delivery' });
      await expect(section).toContainText(`Received by Eve ${run}`);
      await expectImageLoaded(section, 'Signature', `Signature of Eve ${run}`);
      await expect(section.getByRole('button', { name: /proof of delivery/ })).toHaveCount(0);
    });
  });
}
