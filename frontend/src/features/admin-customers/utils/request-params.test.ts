import { describe, expect, it } from 'vitest';
import { AccountRequestState } from '@/gen/logistics/v1/customer_pb';
import { countBadge, requestParamsFrom, requestParamsTo, requestStateFilter } from './request-params';

describe('account request params', () => {
  it('defaults to every state on the first page', () => {
    expect(requestParamsFrom(new URLSearchParams(''))).toEqual({ state: 'all', after: '', page: 1 });
    expect(requestParamsFrom(new URLSearchParams('state=lost&page=3'))).toEqual({ state: 'all', after: '', page: 1 });
  });

  it('round-trips a state and a page', () => {
    const params = { state: 'declined', after: 'tok', page: 2 } as const;
    expect(requestParamsFrom(requestParamsTo(params))).toEqual(params);
    expect(requestParamsTo({ state: 'pending', after: '', page: 1 }).toString()).toBe('state=pending');
  });

  it('maps the state to the filter', () => {
    expect(requestStateFilter('all')).toBe(AccountRequestState.UNSPECIFIED);
    expect(requestStateFilter('approved')).toBe(AccountRequestState.APPROVED);
  });

  it('counts up to 99, then 99+', () => {
    expect(countBadge(undefined)).toBe('');
    expect(countBadge(0)).toBe('');
    expect(countBadge(7)).toBe('7');
    expect(countBadge(99)).toBe('99');
    expect(countBadge(100)).toBe('99+');
  });
});
