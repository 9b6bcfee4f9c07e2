import { describe, expect, it } from 'vitest';
import { ShipmentExceptionKind, ShipmentExceptionState } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { DeliveryAttemptFailure } from '@/gen/logistics/v1/shipment_pb';
import {
  EXCEPTION_KINDS,
  countText,
  exceptionParamsFrom,
  exceptionParamsTo,
  failureLabel,
  formatSince,
  kindLabel,
  listFilter,
} from './exceptions';

describe('formatSince', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const minute = 60_000;
  const hour = 60 * minute;
  const day = 24 * hour;

  it('says how long, in the largest whole unit that reads well', () => {
    expect(formatSince(ago(20_000), now)).toBe('for less than a minute');
    expect(formatSince(ago(minute), now)).toBe('for 1 minute');
    expect(formatSince(ago(59 * minute), now)).toBe('for 59 minutes');
    expect(formatSince(ago(hour), now)).toBe('for 1 hour');
    expect(formatSince(ago(47 * hour + 59 * minute), now)).toBe('for 47 hours');
    expect(formatSince(ago(2 * day), now)).toBe('for 2 days');
    expect(formatSince(ago(3 * day + 5 * hour), now)).toBe('for 3 days');
    expect(formatSince(ago(400 * day), now)).toBe('for 400 days');
  });

  it('reads a moment a little ahead of this clock, or none, as just begun', () => {
    expect(formatSince(new Date(now.getTime() + 5 * minute), now)).toBe('for less than a minute');
    expect(formatSince(new Date(Number.NaN), now)).toBe('for less than a minute');
  });
});

describe('the queue in the address', () => {
  it('reads the filters, ignoring what it does not know', () => {
    expect(exceptionParamsFrom(new URLSearchParams('kind=late'))).toEqual({ kind: 'late', state: 'open', assignee: 'anyone' });
    expect(exceptionParamsFrom(new URLSearchParams('kind=nope&state=closed&assignee=x'))).toEqual({
      kind: 'all',
      state: 'open',
      assignee: 'anyone',
    });
    expect(exceptionParamsFrom(new URLSearchParams('state=resolved&assignee=me&kind=on_hold'))).toEqual({
      kind: 'on_hold',
      state: 'resolved',
      assignee: 'me',
    });
  });

  it('writes only what differs from the defaults, and reads it back', () => {
    expect(exceptionParamsTo({ kind: 'all', state: 'open', assignee: 'anyone' }).toString()).toBe('');
    const params = { kind: 'failed_delivery_attempt', state: 'resolved', assignee: 'none' } as const;
    expect(exceptionParamsFrom(exceptionParamsTo(params))).toEqual(params);
  });

  it('asks the server for the same filter', () => {
    expect(listFilter({ kind: 'all', state: 'open', assignee: 'anyone' })).toEqual({
      kind: ShipmentExceptionKind.UNSPECIFIED,
      state: ShipmentExceptionState.OPEN,
      assigneeId: '',
    });
    expect(listFilter({ kind: 'stalled', state: 'resolved', assignee: 'me' })).toEqual({
      kind: ShipmentExceptionKind.STALLED,
      state: ShipmentExceptionState.RESOLVED,
      assigneeId: 'me',
    });
  });
});

describe('words', () => {
  it('names every kind of the proto, in its order', () => {
    const values = Object.values(ShipmentExceptionKind).filter((v) => v !== ShipmentExceptionKind.UNSPECIFIED);
    expect(EXCEPTION_KINDS.map((k) => k.value)).toEqual(values);
    expect(kindLabel(ShipmentExceptionKind.MISSING_PROOF_OF_DELIVERY)).toBe('Missing proof of delivery');
  });

  it('names a failed attempt', () => {
    expect(failureLabel(DeliveryAttemptFailure.NOBODY_HOME)).toBe('Nobody home');
    expect(failureLabel(DeliveryAttemptFailure.ADDRESS_PROBLEM)).toBe('Address problem');
    expect(failureLabel(DeliveryAttemptFailure.UNSPECIFIED)).toBe('');
  });

  it('counts to 1,000 and then says more', () => {
    expect(countText(0n)).toBe('0');
    expect(countText(1000)).toBe('1,000');
    expect(countText(1001n)).toBe('1,000+');
  });
});
