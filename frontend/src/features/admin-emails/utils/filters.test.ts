import { describe, expect, it } from 'vitest';
import { NotificationState } from '@/gen/logistics/v1/notification_pb';
import { filtersFromParams, filtersToParams, stateOf } from './filters';

describe('e-mail filters in the address', () => {
  it('round-trip through the address, leaving empty ones out', () => {
    const filters = { state: 'failed', query: 'PSE123' };
    const params = filtersToParams(filters);
    expect(params.toString()).toBe('state=failed&q=PSE123');
    expect(filtersFromParams(params)).toEqual(filters);
    expect(filtersToParams({ state: '', query: '  ' }).toString()).toBe('');
  });

  it('drop a state the outbox does not have and bound the query', () => {
    const filters = filtersFromParams(new URLSearchParams({ state: 'lost', q: ` ${'a'.repeat(300)} ` }));
    expect(filters.state).toBe('');
    expect(filters.query).toHaveLength(200);
    expect(stateOf(filters)).toBe(NotificationState.UNSPECIFIED);
  });

  it('name the API state of each filter', () => {
    expect(stateOf({ state: 'retrying', query: '' })).toBe(NotificationState.RETRYING);
    expect(stateOf({ state: 'failed', query: '' })).toBe(NotificationState.FAILED);
  });
});
