import { describe, expect, it } from 'vitest';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { historyByDay } from './shipment';

describe('historyByDay', () => {
  it('groups by local day, newest day and newest entry first', () => {
    const at = (id: string, ms: number, localDate: string) => ({ id, time: timestampFromMs(ms), localDate });
    const groups = historyByDay([
      at('created', 1000, '2026-11-20'),
      at('picked', 2000, '2026-11-20'),
      at('moved', 3000, '2026-11-21'),
      at('late', 5000, '2026-11-23'),
      at('held', 4000, '2026-11-23'),
    ]);
    expect(groups.map((g) => [g.localDate, g.entries.map((e) => e.id)])).toEqual([
      ['2026-11-23', ['late', 'held']],
      ['2026-11-21', ['moved']],
      ['2026-11-20', ['picked', 'created']],
    ]);
  });

  it('is empty without history', () => {
    expect(historyByDay([])).toEqual([]);
  });
});
