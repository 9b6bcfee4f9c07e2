import { expect, type Locator, type Page } from '@playwright/test';
import {
  formatCents,
  formatClock,
  formatDimensionsCm,
  formatIsoDate,
  formatKg,
  titleCase,
} from '../../src/utils/format';
import type { DemoShipment } from './demo';

export const NOT_FOUND_MESSAGE = 'Shipment not found. Please check your tracking number and try again.';
export const EMPTY_INPUT_MESSAGE = 'Please enter a tracking number.';
export const MALFORMED_MESSAGE =
  'That is not a tracking number. A tracking number is PSE followed by 9 digits, for example PSE123456789.';
export const COPIED_MESSAGE = 'Tracking number copied to clipboard!';
export const SHIPMENT_SERVICE_PATH = '/logistics.v1.ShipmentService/';

const PAYMENT_LABELS: Record<string, string> = {
  bank_transfer: 'Bank Transfer',
  credit_card: 'Credit Card',
  cash: 'Cash',
  check: 'Check',
};

const BADGE_TONES: Record<string, string> = {
  delivered: 'green',
  in_transit: 'blue',
  delayed: 'red',
  on_hold: 'yellow',
};

const MODE_ICONS: Record<string, string> = { sea_shipping: 'sea', air_shipping: 'air', land_shipping: 'ground' };

/** The <dd> that follows the <dt> with exactly this text. */
export function definition(scope: Locator, term: string): Locator {
  return scope.locator(`xpath=.//dt[normalize-space(.)="${term}"]/following-sibling::dd[1]`);
}

/** The track page's error message (not the toast). */
export function trackError(page: Page): Locator {
  return page.getByRole('main').getByTestId('track-error');
}

/** A toast with exactly this text. */
export function toastWithText(page: Page, text: string): Locator {
  return page.locator('.Toastify').getByText(text, { exact: true });
}

export function trackButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Track', exact: true });
}

export function trackingInput(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Tracking number' });
}

/** A place as the public (limited) view shows it: its last two parts, city and country. */
export function cityLevel(place: string): string {
  return place
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .slice(-2)
    .join(', ');
}

/** A name as the public (limited) view shows it: "Amara Okafor" → "Amara O.". */
export function shortName(name: string): string {
  const [first, second] = name.trim().split(/\s+/);
  return second ? `${first} ${second[0].toUpperCase()}.` : (first ?? '');
}

/**
 * Asserts that the page shows the shipment as the demo JSON has it: in the public (limited)
 * view by default (places at city level, names shortened, no contact details, price or
 * packages), or every field in the full view.
 */
export async function expectShipmentShown(page: Page, s: DemoShipment, view: 'limited' | 'full' = 'limited'): Promise<void> {
  const full = view === 'full';
  const place = (value: string) => (full ? value : cityLevel(value));
  const main = page.getByRole('main');

  await expect(main.getByRole('heading', { level: 2, name: s.trackingNumber, exact: true })).toBeVisible();
  await expect(main.getByRole('button', { name: 'Copy tracking number' })).toBeVisible();

  const summary = main.locator('.result-summary');
  const badge = summary.locator('.status-badge');
  await expect(badge).toHaveText(titleCase(s.status));
  await expect(badge).toHaveClass(new RegExp(`status-${BADGE_TONES[s.status] ?? 'grey'}`));
  await expect(definition(summary, 'Origin')).toHaveText(place(s.origin));
  await expect(definition(summary, 'Destination')).toHaveText(place(s.destination));
  await expect(definition(summary, 'Current Location')).toHaveText(place(s.currentLocation));
  await expect(definition(summary, 'Expected Delivery').locator('.eta-date')).toHaveText(formatIsoDate(s.expectedDeliveryDate));

  const details = main.getByRole('region', { name: 'Shipment Details' });
  const totalWeight = s.packages.reduce((sum, p) => sum + p.weight * p.quantity, 0);
  await expect(definition(details, 'Carrier')).toHaveText(s.carrier);
  await expect(definition(details, 'Shipment Mode')).toHaveText(titleCase(s.shipmentMode));
  await expect(definition(details, 'Shipment Mode').locator(`svg[data-icon="${MODE_ICONS[s.shipmentMode]}"]`)).toBeVisible();
  await expect(definition(details, 'Package Count')).toHaveText(String(s.packageCount));
  await expect(definition(details, 'Total Weight')).toHaveText(formatKg(Math.round((full ? totalWeight : s.weight) * 1000) / 1000));
  // "in_transit" style values are never shown with underscores.
  await expect(details).not.toContainText('_');

  if (full) {
    await expect(definition(details, 'Type of Shipment')).toHaveText(titleCase(s.typeOfShipment));
    await expect(definition(details, 'Payment Mode')).toHaveText(PAYMENT_LABELS[s.paymentMode] ?? s.paymentMode);
    await expect(definition(details, 'Total Freight')).toHaveText(formatCents(BigInt(s.totalFreightCents)));
    await expect(definition(details, 'Pickup Date')).toHaveText(formatIsoDate(s.pickupDate));
    await expect(definition(details, 'Pickup Time')).toHaveText(formatClock(s.pickupTime));
    await expect(definition(details, 'Departure Time')).toHaveText(formatClock(s.departureTime));
    for (const [title, prefix] of [
      ['Shipper', 'shipper'],
      ['Receiver', 'receiver'],
    ] as const) {
      const card = main.getByRole('region', { name: title, exact: true });
      await expect(definition(card, 'Name')).toHaveText(s[`${prefix}Name`]);
      await expect(definition(card, 'Address')).toHaveText(s[`${prefix}Address`]);
      await expect(definition(card, 'Phone')).toHaveText(s[`${prefix}Phone`]);
      await expect(definition(card, 'Email')).toHaveText(s[`${prefix}Email`]);
    }
  } else {
    const parties = main.getByRole('region', { name: 'Shipper and Receiver' });
    await expect(definition(parties, 'Shipper')).toHaveText(shortName(s.shipperName));
    await expect(definition(parties, 'Receiver')).toHaveText(shortName(s.receiverName));
    for (const secret of [s.shipperAddress, s.shipperPhone, s.shipperEmail, s.receiverAddress, s.receiverPhone, s.receiverEmail, s.comments]) {
      await expect(main).not.toContainText(secret);
    }
    await expect(main.getByText('Payment Mode', { exact: true })).toHaveCount(0);
    await expect(main.getByRole('table')).toHaveCount(0);
  }

  // History, newest first (the stored history is oldest first, and only ever appended to), under
  // the heading of its day.
  const history = [...s.shipmentHistory].reverse();
  const items = main.getByRole('region', { name: 'Shipment History' }).getByTestId('history-event');
  await expect(items).toHaveCount(history.length);
  for (const [index, entry] of history.entries()) {
    const item = items.nth(index);
    await expect(item.locator('.status-badge')).toHaveText(titleCase(entry.status));
    await expect(item.locator('xpath=ancestor::li[1]').getByRole('heading')).toHaveText(formatIsoDate(entry.date));
    await expect(item).toContainText(formatClock(entry.time));
    await expect(item.locator('.history-location')).toHaveText(place(entry.location));
    if (entry.remarks) await expect(item).toContainText(entry.remarks);
  }

  if (full) {
    const rows = main.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(s.packages.length);
    for (const [index, p] of s.packages.entries()) {
      await expect(rows.nth(index).getByRole('cell')).toHaveText([
        String(p.quantity),
        p.pieceType,
        p.description,
        formatDimensionsCm(p.length, p.width, p.height),
        formatKg(p.weight),
      ]);
    }
  }
}
