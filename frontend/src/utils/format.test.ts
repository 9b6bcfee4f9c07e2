import { describe, expect, it } from 'vitest';
import {
  EMPTY_VALUE,
  formatCents,
  formatClock,
  formatLongDate,
  formatDateParts,
  formatDecimal,
  formatDateTime,
  formatDimensionsCm,
  formatIsoDate,
  formatKg,
  formatTimeOfDay,
  humanize,
  titleCase,
  normaliseTrackingNumber,
} from './format';

describe('formatCents', () => {
  it('formats cents as dollars with grouping', () => {
    expect(formatCents(125000n)).toBe('$1,250.00');
    expect(formatCents(0n)).toBe('$0.00');
    expect(formatCents(5n)).toBe('$0.05');
    // The currency's own minor unit: yen have none, Kuwaiti dinars have thousandths.
    expect(formatCents(1500n, 'JPY')).toBe('¥1,500');
    expect(formatCents(1250n, 'KWD')).toBe('KWD\u00a01.250');
    expect(formatCents(199n)).toBe('$1.99');
    expect(formatCents(123456789n)).toBe('$1,234,567.89');
  });
  it('is exact beyond float precision', () => {
    expect(formatCents(9223372036854775807n)).toBe('$92,233,720,368,547,758.07');
  });
  it('handles negatives and numbers', () => {
    expect(formatCents(-1050n)).toBe('-$10.50');
    expect(formatCents(2500)).toBe('$25.00');
  });
});

describe('humanize and titleCase', () => {
  it('shows underscores as spaces', () => {
    expect(humanize('in_transit')).toBe('in transit');
    expect(humanize('on_hold')).toBe('on hold');
    expect(humanize('air_shipping')).toBe('air shipping');
    expect(humanize('delivered')).toBe('delivered');
    expect(humanize('a__b_')).toBe('a b');
  });
  it('title-cases labels', () => {
    expect(titleCase('bank_transfer')).toBe('Bank Transfer');
    expect(titleCase('CREDIT card')).toBe('Credit Card');
  });
});

describe('normaliseTrackingNumber', () => {
  it('forgives what people paste: spaces, dashes, case and punctuation around it', () => {
    expect(normaliseTrackingNumber('  PSE123456789 \n')).toBe('PSE123456789');
    expect(normaliseTrackingNumber('pse 3136 81562.')).toBe('PSE313681562');
    expect(normaliseTrackingNumber('"PSE-313-681-562",')).toBe('PSE313681562');
    expect(normaliseTrackingNumber('Pse\u00a0313681562!')).toBe('PSE313681562');
  });

  it('keeps what is inside the number, and leaves nothing of white space or dots', () => {
    expect(normaliseTrackingNumber('PSE3136.81562')).toBe('PSE3136.81562');
    expect(normaliseTrackingNumber('\t ')).toBe('');
    expect(normaliseTrackingNumber('..')).toBe('');
  });
});

describe('dates and times', () => {
  it('formats calendar dates', () => {
    expect(formatDateParts(2026, 12, 1)).toBe('Dec 1, 2026');
    expect(formatDateParts(0, 0, 0)).toBe(EMPTY_VALUE);
    expect(formatIsoDate('2026-11-20')).toBe('Nov 20, 2026');
    expect(formatIsoDate('')).toBe(EMPTY_VALUE);
    expect(formatIsoDate('soon')).toBe('soon');
  });
  it('formats times of day', () => {
    // US English reads a 12-hour clock, as formatDateTime does ("9:05 AM").
    expect(formatTimeOfDay(8, 30)).toMatch(/^8:30\sAM$/u);
    expect(formatTimeOfDay(23, 5)).toMatch(/^11:05\sPM$/u);
    expect(formatTimeOfDay(24, 0)).toBe(EMPTY_VALUE);
    expect(formatClock('09:00:00')).toMatch(/^9:00\sAM$/u);
    expect(formatClock('9:05')).toMatch(/^9:05\sAM$/u);
    expect(formatClock('')).toBe(EMPTY_VALUE);
  });
});

describe('numbers', () => {
  it('formats decimals, weights and dimensions', () => {
    expect(formatDecimal(12.5)).toBe('12.5');
    expect(formatDecimal(1234.5678)).toBe('1,234.57');
    expect(formatDecimal(Number.NaN)).toBe(EMPTY_VALUE);
    expect(formatKg(37.5)).toBe('37.5 kg');
    expect(formatDimensionsCm(50, 40, 30)).toBe('50 × 40 × 30 cm');
  });
});

describe('formatDateTime', () => {
  it('shows a moment, or the empty value', () => {
    expect(formatDateTime(new Date(Date.UTC(2026, 10, 23, 12, 0)))).toMatch(/^Nov 2[234], 2026, \d{1,2}:\d{2}\s?[AP]M$/);
    expect(formatDateTime(undefined)).toBe(EMPTY_VALUE);
    expect(formatDateTime(new Date(Number.NaN))).toBe(EMPTY_VALUE);
  });
});

describe('formatLongDate', () => {
  it('shows a day the same in every time zone', () => {
    expect(formatLongDate('2026-11-23')).toBe('November 23, 2026');
    expect(formatLongDate('2026-01-01')).toBe('January 1, 2026');
  });
});
