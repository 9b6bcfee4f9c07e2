import { describe, expect, it } from 'vitest';
import { formatWeekdayDate, formatWeekdayRange } from './delivery-dates';

describe('formatWeekdayDate and formatWeekdayRange', () => {
  it('shows the weekday, month and day of a calendar date', () => {
    expect(formatWeekdayDate({ year: 2026, month: 12, day: 1 })).toBe('Tue, Dec 1');
    expect(formatWeekdayDate({ year: 0, month: 0, day: 0 })).toBe('—');
    expect(formatWeekdayDate(undefined)).toBe('—');
  });

  it('shows a range of days, or one day', () => {
    expect(formatWeekdayRange({ year: 2026, month: 12, day: 1 }, { year: 2026, month: 12, day: 3 })).toMatch(/^Tue, Dec 1\s–\sThu, Dec 3$/u);
    expect(formatWeekdayRange({ year: 2026, month: 12, day: 1 }, { year: 2026, month: 12, day: 1 })).toBe('Tue, Dec 1');
    expect(formatWeekdayRange(undefined, { year: 2026, month: 12, day: 3 })).toBe('Thu, Dec 3');
  });
});
