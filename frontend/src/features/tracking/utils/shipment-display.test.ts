import { describe, expect, it } from 'vitest';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { PaymentMode, ShipmentMode, ShipmentStatus, ShipmentType } from '@/gen/logistics/v1/shipment_pb';
import english from '@/locales/en/track.json';
import {
  paymentModeLabel,
  shipmentModeLabel,
  shipmentTypeLabel,
  STATUS_OPTIONS,
  statusLabel,
  statusLabelIdOfKey,
  statusTone,
  totalWeightKg,
} from '@/utils/shipment';
import {
  displayWeightKg,
  historyNewestFirst,
  labelIdOf,
  MODE_OPTIONS,
  PAYMENT_OPTIONS,
  shipmentModeIcon,
  statusKey,
  TYPE_OPTIONS,
} from './shipment-display';

describe('status', () => {
  it('maps enum values to stored keys and labels', () => {
    expect(statusKey(ShipmentStatus.IN_TRANSIT)).toBe('in_transit');
    expect(statusLabel(ShipmentStatus.IN_TRANSIT)).toBe('In Transit');
    expect(statusLabel(ShipmentStatus.ON_HOLD)).toBe('On Hold');
    expect(statusLabel(ShipmentStatus.PENDING)).toBe('Pending');
    expect(statusLabel(ShipmentStatus.UNSPECIFIED)).toBe('Unknown');
  });
  it('colours the badge', () => {
    expect(statusTone('delivered')).toBe('green');
    expect(statusTone('in_transit')).toBe('blue');
    expect(statusTone('in transit')).toBe('blue');
    expect(statusTone('delayed')).toBe('red');
    expect(statusTone('on_hold')).toBe('yellow');
    expect(statusTone('pending')).toBe('grey');
    expect(statusTone('anything')).toBe('grey');
  });
});

describe('type, mode and payment', () => {
  it('labels shipment types and modes in title case, with spaces', () => {
    expect(shipmentTypeLabel(ShipmentType.EXPRESS)).toBe('Express');
    expect(shipmentTypeLabel(ShipmentType.UNSPECIFIED)).toBe('Not specified');
    expect(shipmentModeLabel(ShipmentMode.AIR_SHIPPING)).toBe('Air Shipping');
    expect(shipmentModeLabel(ShipmentMode.LAND_SHIPPING)).toBe('Land Shipping');
  });
  it('picks the mode icon', () => {
    expect(shipmentModeIcon(ShipmentMode.SEA_SHIPPING)).toBe('sea');
    expect(shipmentModeIcon(ShipmentMode.AIR_SHIPPING)).toBe('air');
    expect(shipmentModeIcon(ShipmentMode.LAND_SHIPPING)).toBe('ground');
  });
  it('labels payment modes', () => {
    expect(paymentModeLabel(PaymentMode.BANK_TRANSFER)).toBe('Bank Transfer');
    expect(paymentModeLabel(PaymentMode.CREDIT_CARD)).toBe('Credit Card');
    expect(paymentModeLabel(PaymentMode.CASH)).toBe('Cash');
    expect(paymentModeLabel(PaymentMode.CHECK)).toBe('Check');
    expect(paymentModeLabel(PaymentMode.UNSPECIFIED)).toBe('Not specified');
  });
  it('reads the same in English on the visitor\'s pages as in the admin area', () => {
    const messages: Record<string, string> = english;
    for (const option of [...STATUS_OPTIONS, ...TYPE_OPTIONS, ...MODE_OPTIONS, ...PAYMENT_OPTIONS]) {
      expect(messages[option.labelId]).toBe(option.label);
    }
    expect(messages[statusLabelIdOfKey(statusKey(ShipmentStatus.UNSPECIFIED))!]).toBe('Unknown');
    expect(messages[labelIdOf(TYPE_OPTIONS, ShipmentType.UNSPECIFIED)]).toBe('Not specified');
    expect(statusLabelIdOfKey('lost_at_sea')).toBeUndefined();
  });
});

describe('totalWeightKg', () => {
  it('sums weight × quantity', () => {
    expect(totalWeightKg([])).toBe(0);
    expect(
      totalWeightKg([
        { weightKg: 12.5, quantity: 1 },
        { weightKg: 0.1, quantity: 3 },
      ]),
    ).toBe(12.8);
  });
});

describe('displayWeightKg', () => {
  it("sums the packages, else takes the shipment's totals", () => {
    const packages = [{ weightKg: 2, quantity: 3 }] as never;
    expect(displayWeightKg({ packages, totalActualWeightKg: 99, weightKg: 98 })).toBe(6);
    expect(displayWeightKg({ packages: [], totalActualWeightKg: 12.5, weightKg: 98 })).toBe(12.5);
    expect(displayWeightKg({ packages: [], totalActualWeightKg: 0, weightKg: 40 })).toBe(40);
  });
});

describe('historyNewestFirst', () => {
  it('orders by timestamp, newest first', () => {
    const entries = [
      { id: 'a', time: timestampFromMs(1000) },
      { id: 'c', time: timestampFromMs(3000) },
      { id: 'b', time: timestampFromMs(2000) },
    ];
    expect(historyNewestFirst(entries).map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });
  it('orders by nanoseconds within one millisecond', () => {
    const at = (nanos: number) => ({ ...timestampFromMs(5000), nanos });
    const entries = [
      { id: 'a', time: at(116_376_000) },
      { id: 'b', time: at(116_955_000) },
      { id: 'c', time: at(115_435_000) },
    ];
    expect(historyNewestFirst(entries).map((e) => e.id)).toEqual(['b', 'a', 'c']);
  });
  it('reverses the stored order when timestamps are missing or equal', () => {
    const entries = [
      { id: 'a', time: undefined },
      { id: 'b', time: undefined },
    ];
    expect(historyNewestFirst(entries).map((e) => e.id)).toEqual(['b', 'a']);
  });
});
