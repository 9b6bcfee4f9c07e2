import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { PickupSettingsSchema } from '@/gen/logistics/v1/customer_pb';
import { pickupInputOf, toPickupSettings, toPickupValues } from './pickup-settings';

describe('pickup settings form', () => {
  it('shows the saved settings as inputs', () => {
    const settings = create(PickupSettingsSchema, {
      sameDayCutoff: { hours: 9, minutes: 5 },
      closedWeekdays: [7, 6],
      closedDates: [{ year: 2026, month: 12, day: 25 }],
    });
    expect(toPickupValues(settings)).toEqual({ cutoff: '09:05', closedWeekdays: [6, 7], closedDates: ['2026-12-25'] });
    expect(toPickupValues(create(PickupSettingsSchema)).cutoff).toBe('00:00');
  });

  it('saves what the inputs hold, skipping empty dates', () => {
    expect(toPickupSettings({ cutoff: '14:30', closedWeekdays: [7, 1, 7], closedDates: ['2027-01-01', ''] })).toEqual({
      sameDayCutoff: { hours: 14, minutes: 30 },
      closedWeekdays: [1, 7],
      closedDates: [{ year: 2027, month: 1, day: 1 }],
    });
  });

  it('puts server errors on their inputs', () => {
    expect(pickupInputOf('settings.closed_dates[2]')).toEqual({ name: 'closedDates', index: 2 });
    expect(pickupInputOf('settings.closed_dates')).toEqual({ name: 'closedDates', index: undefined });
    expect(pickupInputOf('settings.closed_weekdays[0]')).toEqual({ name: 'closedWeekdays' });
    expect(pickupInputOf('settings.same_day_cutoff.hours')).toEqual({ name: 'cutoff' });
    expect(pickupInputOf('other')).toBeUndefined();
  });
});
