import { describe, expect, it } from 'vitest';
import { basisPointsToPercent, currencyDecimals, minorToInput, parseMoney, parsePercent } from './money';

describe('parseMoney', () => {
  it('reads decimals exactly into minor units', () => {
    expect(parseMoney('12.50')).toBe(1250n);
    expect(parseMoney('12.5')).toBe(1250n);
    expect(parseMoney(' 7 ')).toBe(700n);
    expect(parseMoney('.5')).toBe(50n);
    expect(parseMoney('0.10')).toBe(10n);
    expect(parseMoney('1,250.05')).toBe(125005n);
    expect(parseMoney('0')).toBe(0n);
    // A float would make 0.29 * 100 = 28.999…
    expect(parseMoney('0.29')).toBe(29n);
    expect(parseMoney('92233720368547758.07')).toBe(9223372036854775807n);
  });

  it('refuses what is no amount', () => {
    for (const bad of ['', ' ', '.', 'abc', '-1', '1.234', '1e3', '12,5', '1,2345', '$5', '92233720368547758.08']) {
      expect(parseMoney(bad), bad).toBeNull();
    }
  });

  it('follows the currency’s decimals', () => {
    expect(parseMoney('1500', 0)).toBe(1500n);
    expect(parseMoney('1.5', 0)).toBeNull();
    expect(parseMoney('1.234', 3)).toBe(1234n);
  });
});

describe('minorToInput', () => {
  it('writes minor units as the decimals an input shows', () => {
    expect(minorToInput(1250n)).toBe('12.50');
    expect(minorToInput(5n)).toBe('0.05');
    expect(minorToInput(0n)).toBe('0.00');
    expect(minorToInput(-150n)).toBe('-1.50');
    expect(minorToInput(9223372036854775807n)).toBe('92233720368547758.07');
    expect(minorToInput(1500n, 0)).toBe('1500');
  });

  it('round-trips with parseMoney', () => {
    for (const minor of [0n, 1n, 99n, 100n, 123456789n]) expect(parseMoney(minorToInput(minor))).toBe(minor);
  });
});

describe('percentages', () => {
  it('reads a percentage as basis points', () => {
    expect(parsePercent('12.5')).toBe(1250);
    expect(parsePercent('10')).toBe(1000);
    expect(parsePercent('0.05')).toBe(5);
    expect(parsePercent('100')).toBe(10000);
    expect(parsePercent('7.5 %')).toBe(750);
    expect(parsePercent('.5')).toBe(50);
    for (const bad of ['', 'abc', '100.01', '101', '1.234', '-5']) expect(parsePercent(bad), bad).toBeNull();
  });

  it('writes basis points as a percentage', () => {
    expect(basisPointsToPercent(1250)).toBe('12.5');
    expect(basisPointsToPercent(1000)).toBe('10');
    expect(basisPointsToPercent(5)).toBe('0.05');
    expect(basisPointsToPercent(0)).toBe('0');
  });
});

describe('currencyDecimals', () => {
  it('knows the minor unit of each currency', () => {
    expect(currencyDecimals('USD')).toBe(2);
    expect(currencyDecimals('jpy')).toBe(0);
    expect(currencyDecimals('KWD')).toBe(3);
    expect(currencyDecimals('')).toBe(2);
  });
});

// Freight amounts of a shipment (two decimals).

describe('parseMoney', () => {
  it('converts dollars to exact cents', () => {
    expect(parseMoney('1250.5')).toBe(125050n);
    expect(parseMoney('1250.50')).toBe(125050n);
    expect(parseMoney('1250')).toBe(125000n);
    expect(parseMoney('0')).toBe(0n);
    expect(parseMoney('0.01')).toBe(1n);
    expect(parseMoney('.5')).toBe(50n);
    expect(parseMoney('7.')).toBe(700n);
    expect(parseMoney(' 1,234,567.89 ')).toBe(123456789n);
  });

  it('has no binary float errors', () => {
    const sum = parseMoney('0.1')! + parseMoney('0.2')!;
    expect(sum).toBe(30n);
    expect(parseMoney('0.3')).toBe(sum);
    expect(parseMoney('1.15')).toBe(115n); // 1.15 * 100 = 114.99999999999999 as a float
    expect(parseMoney('4.35')).toBe(435n); // 4.35 * 100 = 434.99999999999994 as a float
    expect(parseMoney('92233720368547758.07')).toBe(9223372036854775807n);
  });

  it('rejects invalid input', () => {
    for (const bad of ['', '   ', '.', '-1', '-0.5', '1.234', 'abc', '12a', '1e3', '1,23', '1 000', '$', '0x10', 'NaN', 'Infinity']) {
      expect(parseMoney(bad), bad).toBeNull();
    }
    expect(parseMoney('92233720368547758.08')).toBeNull();
  });
});

describe('minorToInput', () => {
  it('formats cents for an input', () => {
    expect(minorToInput(125050n)).toBe('1250.50');
    expect(minorToInput(5n)).toBe('0.05');
    expect(minorToInput(0n)).toBe('0.00');
    expect(parseMoney(minorToInput(9223372036854775807n))).toBe(9223372036854775807n);
  });
});
