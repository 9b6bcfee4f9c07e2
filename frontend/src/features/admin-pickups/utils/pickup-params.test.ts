import { describe, expect, it } from 'vitest';
import { PickupState } from '@/gen/logistics/v1/customer_pb';
import { dateFromIso, pickupActions, pickupParamsFrom, pickupParamsTo, stateFilter } from './pickup-params';

const TODAY = '2026-11-27';

describe('pickup queue params', () => {
  it('defaults to today, every area and every state', () => {
    expect(pickupParamsFrom(new URLSearchParams(''), TODAY)).toEqual({ date: TODAY, area: '', state: 'all' });
  });

  it('reads a day, an area and a state, and ignores bad values', () => {
    expect(pickupParamsFrom(new URLSearchParams('date=2026-12-01&area=Soho&state=confirmed'), TODAY)).toEqual({
      date: '2026-12-01',
      area: 'Soho',
      state: 'confirmed',
    });
    expect(pickupParamsFrom(new URLSearchParams('date=2026-02-30&state=lost'), TODAY)).toEqual({
      date: TODAY,
      area: '',
      state: 'all',
    });
  });

  it('writes only what differs from the default, and round-trips', () => {
    expect(pickupParamsTo({ date: TODAY, area: '', state: 'all' }, TODAY).toString()).toBe('');
    const params = { date: '2026-12-01', area: 'North', state: 'failed' } as const;
    expect(pickupParamsFrom(pickupParamsTo(params, TODAY), TODAY)).toEqual(params);
  });

  it('maps the state to the filter', () => {
    expect(stateFilter('all')).toBe(PickupState.UNSPECIFIED);
    expect(stateFilter('collected')).toBe(PickupState.COLLECTED);
  });

  it('parses only real days', () => {
    expect(dateFromIso('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(dateFromIso('2027-02-29')).toBeUndefined();
    expect(dateFromIso('27/11/2026')).toBeUndefined();
  });

  it('allows each action only in the states the server accepts', () => {
    expect(pickupActions(PickupState.REQUESTED)).toEqual({ assign: true, confirm: true, collect: true, fail: true });
    expect(pickupActions(PickupState.CONFIRMED)).toEqual({ assign: true, confirm: false, collect: true, fail: true });
    expect(pickupActions(PickupState.COLLECTED)).toEqual({ assign: false, confirm: false, collect: false, fail: false });
    expect(pickupActions(PickupState.FAILED)).toEqual({ assign: false, confirm: false, collect: false, fail: false });
  });
});
