// Helpers of the tracking privacy, subscription and result-page tests.
import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { expect, type Locator, type Page } from '@playwright/test';
import {
  PaymentMode,
  ShipmentMode,
  type ShipmentSchema,
  ShipmentStatus,
  ShipmentType,
  type Shipment,
} from '../../src/gen/logistics/v1/shipment_pb';
import type { Notification } from '../../src/gen/logistics/v1/notification_pb';
import { listEmails, type Clients } from './rpc';

export const VERIFY_LABEL = 'E-mail address or last 4 digits of a phone number';
export const VERIFY_BUTTON = 'Show full details';
export const NO_MATCH = 'These details do not match this shipment.';
export const SUBSCRIBE_SENT = 'Check your inbox: we sent you a link to confirm.';
export const CONFIRMED = "You will get an e-mail whenever this shipment's status changes.";

/** A shipment with parties whose details a test can look for (and must not find). */
export function partiesFor(run: string) {
  return {
    shipper: {
      name: `Maria Garcia`,
      address: `12 Rua Augusta ${run}, 1100-053 Lisboa, Portugal`,
      phone: '+351 21 555 4821',
      email: `maria.${run}@example.pt`,
    },
    receiver: {
      name: `Jan Jansen`,
      address: `Dam Square ${run}, 1012 JS Amsterdam, Netherlands`,
      phone: '+31 20 555 7390',
      email: `jan.${run}@example.nl`,
    },
  };
}

/** A date as the API takes it, `days` from today (negative: in the past), in this machine's
 * time zone, which the gateway under test shares. */
export function dayFromToday(days: number): { year: number; month: number; day: number } {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** Creates a shipment through the admin API (pending, at its origin), booked `bookedAt` (now
 * by default). */
export async function createShipment(
  admin: Clients,
  run: string,
  overrides: Omit<Exclude<MessageInitShape<typeof ShipmentSchema>, Shipment>, '$typeName'> = {},
  bookedAt?: Date,
): Promise<Shipment> {
  const { shipper, receiver } = partiesFor(run);
  return admin.shipments.createShipment({
    createTime: bookedAt && timestampFromDate(bookedAt),
    shipment: {
      shipper,
      receiver,
      origin: 'Lisbon, Portugal',
      destination: 'Amsterdam, Netherlands',
      carrier: 'TAP Air Cargo',
      type: ShipmentType.EXPRESS,
      mode: ShipmentMode.AIR_SHIPPING,
      packageCount: 2,
      product: `Azulejo tiles ${run}`,
      productQuantity: 2,
      paymentMode: PaymentMode.CREDIT_CARD,
      totalFreightCents: 123_456n,
      weightKg: 25,
      expectedDeliveryDate: dayFromToday(10),
      departureTime: { hours: 8, minutes: 30 },
      pickupDate: { year: 2026, month: 11, day: 20 },
      pickupTime: { hours: 9, minutes: 15 },
      packages: [{ quantity: 2, pieceType: 'Box', description: `Tiles in straw ${run}`, lengthCm: 50, widthCm: 40, heightCm: 30, weightKg: 12.5 }],
      comments: `Ring twice ${run}`,
      ...overrides,
    },
  });
}

/** Moves a shipment on (a history entry at `at`, now by default, and the e-mails its settings
 * ask for). */
export async function moveShipment(
  admin: Clients,
  shipment: Shipment,
  status: ShipmentStatus,
  place: string,
  remarks = '',
  at?: Date,
): Promise<Shipment> {
  return admin.shipments.updateShipmentTracking({
    id: shipment.id,
    status,
    currentLocation: place,
    remarks,
    // Written as status text for anyone with the number, as the tests read it on the public page.
    remarksPublic: true,
    eventTime: at && timestampFromDate(at),
  });
}

/** Waits for an e-mail in the outbox that matches, and returns it. */
export async function waitForEmail(admin: Clients, matches: (email: Notification) => boolean, what: string): Promise<Notification> {
  let found: Notification | undefined;
  await expect
    .poll(
      async () => {
        found = (await listEmails(admin)).find(matches);
        return found !== undefined;
      },
      { message: `an e-mail: ${what}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** A link of an e-mail as a path on the site under test (the e-mail names PUBLIC_URL's host). */
export function sitePath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Every text of the shipment that only the FULL view may show. */
export function privateTexts(run: string): string[] {
  const { shipper, receiver } = partiesFor(run);
  return [
    shipper.address,
    shipper.phone,
    shipper.email,
    receiver.address,
    receiver.phone,
    receiver.email,
    'Garcia',
    'Jansen',
    `Tiles in straw ${run}`,
    `Azulejo tiles ${run}`,
    `Ring twice ${run}`,
    '$1,234.56',
  ];
}

export function result(page: Page): Locator {
  return page.getByRole('main');
}

/** The limited view: names shortened, no contact details, packages or price; the form to verify. */
export async function expectLimitedView(page: Page, shipment: Shipment, run: string): Promise<void> {
  const main = result(page);
  await expect(main.getByRole('heading', { level: 2, name: shipment.trackingNumber, exact: true })).toBeVisible();
  const parties = main.getByRole('region', { name: 'Shipper and Receiver' });
  await expect(parties).toContainText('Maria G.');
  await expect(parties).toContainText('Jan J.');
  await expect(main.getByRole('heading', { name: 'Packages' })).toHaveCount(0);
  await expect(main.getByRole('table')).toHaveCount(0);
  for (const text of privateTexts(run)) await expect(main, text).not.toContainText(text);
  await expect(main.getByRole('textbox', { name: VERIFY_LABEL })).toBeVisible();
  await expect(main.getByRole('button', { name: VERIFY_BUTTON })).toBeVisible();
}

/** The full view: the spec's shipper and receiver blocks, packages and price. */
export async function expectFullView(page: Page, run: string): Promise<void> {
  const { shipper, receiver } = partiesFor(run);
  const main = result(page);
  for (const [title, party] of [
    ['Shipper', shipper],
    ['Receiver', receiver],
  ] as const) {
    const card = main.getByRole('region', { name: title, exact: true });
    await expect(card).toContainText(party.name);
    await expect(card).toContainText(party.address);
    await expect(card).toContainText(party.phone);
    await expect(card).toContainText(party.email);
  }
  await expect(main.getByRole('heading', { name: 'Packages' })).toBeVisible();
  await expect(main).toContainText('$1,234.56');
  await expect(main.getByRole('textbox', { name: VERIFY_LABEL })).toHaveCount(0);
}
