import { describe, expect, it } from 'vitest';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { PaymentMode, ShipmentMode, ShipmentStatus, ShipmentType } from '@/gen/logistics/v1/shipment_pb';
import {
  MODE_OPTIONS,
  PAYMENT_OPTIONS,
  STATUS_OPTIONS,
  TYPE_OPTIONS,
  historyByDay,
  keyOf,
  statusLabelOfKey,
  valueOf,
} from './shipment';

describe('labels and keys', () => {
  it('labels every value in title case and keeps the stored keys', () => {
    const pairs = (options: ReadonlyArray<{ key: string; label: string }>) => options.map((o) => [o.key, o.label]);
    expect(pairs(STATUS_OPTIONS)).toEqual([
      ['pending', 'Pending'],
      ['in_transit', 'In Transit'],
      ['delivered', 'Delivered'],
      ['delayed', 'Delayed'],
      ['on_hold', 'On Hold'],
    ]);
    expect(pairs(TYPE_OPTIONS)).toEqual([
      ['standard', 'Standard'],
      ['express', 'Express'],
      ['economy', 'Economy'],
    ]);
    expect(pairs(MODE_OPTIONS)).toEqual([
      ['land_shipping', 'Land Shipping'],
      ['air_shipping', 'Air Shipping'],
      ['sea_shipping', 'Sea Shipping'],
    ]);
    expect(pairs(PAYMENT_OPTIONS)).toEqual([
      ['bank_transfer', 'Bank Transfer'],
      ['credit_card', 'Credit Card'],
      ['cash', 'Cash'],
      ['check', 'Check'],
    ]);
  });

  it('maps keys to enum values and back', () => {
    expect(valueOf(STATUS_OPTIONS, 'on_hold')).toBe(ShipmentStatus.ON_HOLD);
    expect(keyOf(TYPE_OPTIONS, ShipmentType.ECONOMY)).toBe('economy');
    expect(keyOf(MODE_OPTIONS, ShipmentMode.SEA_SHIPPING)).toBe('sea_shipping');
    expect(valueOf(PAYMENT_OPTIONS, 'credit_card')).toBe(PaymentMode.CREDIT_CARD);
    expect(valueOf(STATUS_OPTIONS, 'In Transit')).toBe(ShipmentStatus.UNSPECIFIED);
  });

  it('labels a status key, and title-cases one it does not know', () => {
    expect(statusLabelOfKey('in_transit')).toBe('In Transit');
    expect(statusLabelOfKey('unknown')).toBe('Unknown');
    expect(statusLabelOfKey('lost_at_sea')).toBe('Lost At Sea');
  });
});

describe('historyByDay', () => {
  it('groups by local day, newest day and newest entry first', () => {
    const at = (id: string, ms: number, localDate: string) => ({ id, time: timestampFromMs(ms), localDate });
    const groups = historyByDay([
      at('created', 1000, '2026-11-20'),
      at('picked', 2000, '2026-11-20'),
      at('moved', 3000, '2026-11-21'),
      at('late', 5000, '2026-11-23'),
      at('held', 4000, '2026-11-23'),
    ]);
    expect(groups.map((g) => [g.localDate, g.entries.map((e) => e.id)])).toEqual([
      ['2026-11-23', ['late', 'held']],
      ['2026-11-21', ['moved']],
      ['2026-11-20', ['picked', 'created']],
    ]);
  });

  it('is empty without history', () => {
    expect(historyByDay([])).toEqual([]);
  });
});
