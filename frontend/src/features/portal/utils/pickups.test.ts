import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { PickupSettingsSchema } from '@/gen/logistics/v1/customer_pb';
import { clockToTime, closedDaysText, cutoffText, isoToDate } from './pickups';

const settings = create(PickupSettingsSchema, {
  sameDayCutoff: { hours: 9, minutes: 5 },
  closedWeekdays: [7, 6],
  closedDates: [{ year: 2026, month: 12, day: 25 }],
});

describe('pickup rules', () => {
  it('show the cut-off as HH:MM, none at 00:00', () => {
    expect(cutoffText(settings)).toBe('09:05');
    expect(cutoffText(create(PickupSettingsSchema, { sameDayCutoff: { hours: 0, minutes: 0 } }))).toBeNull();
  });
  it('name the closed weekdays in order, then the dates, in the language', () => {
    expect(closedDaysText(settings, 'en-US')).toBe('Saturday, Sunday, and December 25, 2026');
    expect(closedDaysText(settings, 'es')).toBe('sábado, domingo y 25 de diciembre de 2026');
    expect(closedDaysText(create(PickupSettingsSchema, {}), 'en-US')).toBe('');
  });
});

describe('pickup values', () => {
  it('convert the inputs to the API', () => {
    expect(isoToDate('2026-11-30')).toEqual({ year: 2026, month: 11, day: 30 });
    expect(clockToTime('14:30')).toEqual({ hours: 14, minutes: 30 });
  });
});
