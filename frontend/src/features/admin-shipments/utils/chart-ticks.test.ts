import { describe, expect, it } from 'vitest';
import { chartTicks } from './chart-ticks';

describe('chartTicks', () => {
  it('counts up in round steps to at least the largest value', () => {
    expect(chartTicks(0)).toEqual([0, 1]);
    expect(chartTicks(1)).toEqual([0, 1]);
    expect(chartTicks(2)).toEqual([0, 1, 2]);
    expect(chartTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(chartTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(chartTicks(12)).toEqual([0, 5, 10, 15]);
    expect(chartTicks(40)).toEqual([0, 10, 20, 30, 40]);
    expect(chartTicks(987)).toEqual([0, 500, 1000]);
  });
});
