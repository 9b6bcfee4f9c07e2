import { describe, expect, it } from 'vitest';
import { centsToDollarsInput, parseDollarsToCents } from './money';

describe('parseDollarsToCents', () => {
  it('converts dollars to exact cents', () => {
    expect(parseDollarsToCents('1250.5')).toBe(125050n);
    expect(parseDollarsToCents('1250.50')).toBe(125050n);
    expect(parseDollarsToCents('1250')).toBe(125000n);
    expect(parseDollarsToCents('0')).toBe(0n);
    expect(parseDollarsToCents('0.01')).toBe(1n);
    expect(parseDollarsToCents('.5')).toBe(50n);
    expect(parseDollarsToCents('7.')).toBe(700n);
    expect(parseDollarsToCents(' $1,234,567.89 ')).toBe(123456789n);
  });

  it('has no binary float errors', () => {
    const sum = parseDollarsToCents('0.1')! + parseDollarsToCents('0.2')!;
    expect(sum).toBe(30n);
    expect(parseDollarsToCents('0.3')).toBe(sum);
    expect(parseDollarsToCents('1.15')).toBe(115n); // 1.15 * 100 = 114.99999999999999 as a float
    expect(parseDollarsToCents('4.35')).toBe(435n); // 4.35 * 100 = 434.99999999999994 as a float
    expect(parseDollarsToCents('92233720368547758.07')).toBe(9223372036854775807n);
  });

  it('rejects invalid input', () => {
    for (const bad of ['', '   ', '.', '-1', '-0.5', '1.234', 'abc', '12a', '1e3', '1,23', '1 000', '$', '0x10', 'NaN', 'Infinity']) {
      expect(parseDollarsToCents(bad), bad).toBeNull();
    }
    expect(parseDollarsToCents('92233720368547758.08')).toBeNull();
  });
});

describe('centsToDollarsInput', () => {
  it('formats cents for an input', () => {
    expect(centsToDollarsInput(125050n)).toBe('1250.50');
    expect(centsToDollarsInput(5n)).toBe('0.05');
    expect(centsToDollarsInput(0n)).toBe('0.00');
    expect(parseDollarsToCents(centsToDollarsInput(9223372036854775807n))).toBe(9223372036854775807n);
  });
});
