import { describe, expect, it } from 'vitest';
import { actionLabel } from '@/utils/audit';
import { filtersFromParams, filtersToParams } from './filters';

describe('audit filters in the address', () => {
  it('round-trips every filter and drops empty ones', () => {
    const filters = { user: 'ada@example.com', action: 'shipment.delete', target: 'PSE123', from: '2026-11-01', to: '' };
    const params = filtersToParams(filters);
    expect(params.toString()).toBe('user=ada%40example.com&action=shipment.delete&target=PSE123&from=2026-11-01');
    expect(filtersFromParams(params)).toEqual(filters);
  });

  it('ignores days that are not days', () => {
    expect(filtersFromParams(new URLSearchParams('from=yesterday&to=2026-13')).from).toBe('');
  });

  it('names actions in words, and unknown ones as they are', () => {
    expect(actionLabel('shipment.status_change')).toBe('Status changed');
    expect(actionLabel('something.new')).toBe('something.new');
  });
});
