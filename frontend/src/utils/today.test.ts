import { describe, expect, it } from 'vitest';
import { longDate } from './today';

describe('longDate', () => {
  it('shows a day the same in every time zone', () => {
    expect(longDate('2026-11-23')).toBe('November 23, 2026');
    expect(longDate('2026-01-01')).toBe('January 1, 2026');
  });
});
