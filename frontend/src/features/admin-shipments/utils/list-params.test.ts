import { describe, expect, it } from 'vitest';
import { activeFilterCount, exportHref, filterOf, paramsFrom, paramsTo } from './list-params';

describe('the shipments list in the address', () => {
  it('round-trips every filter, the sort and the page', () => {
    const search = new URLSearchParams(
      'q=tema&status=in_transit&from=2026-11-01&to=2026-11-30&late=1&sort=create_time&customer=c1&page=3&after=abc',
    );
    const params = paramsFrom(search);
    expect(params).toEqual({
      q: 'tema',
      status: 'in_transit',
      from: '2026-11-01',
      to: '2026-11-30',
      late: true,
      sort: 'create_time',
      customer: 'c1',
      after: 'abc',
      page: 3,
    });
    expect(paramsTo(params).toString()).toBe(search.toString());
  });

  it('drops what it does not know and starts at page 1 without a token', () => {
    const params = paramsFrom(new URLSearchParams('status=lost&from=soon&sort=price&page=4'));
    expect(params).toMatchObject({ status: 'all', from: '', sort: '', page: 1 });
    expect(paramsTo(params).toString()).toBe('');
  });

  it("shows one customer's shipments when the address names it", () => {
    const params = paramsFrom(new URLSearchParams('customer=c1'));
    expect(filterOf(params).customerId).toBe('c1');
    expect(activeFilterCount(params)).toBe(0);
    expect(filterOf(paramsFrom(new URLSearchParams(''))).customerId).toBe('');
  });

  it('exports what the list shows, all pages', () => {
    const params = paramsFrom(new URLSearchParams('q= tema &status=delivered&late=1&page=2&after=x'));
    expect(exportHref(params)).toBe('/exports/shipments.csv?status=delivered&q=tema&late=true');
  });

  it('counts the folded filters that are set: not the search text nor the page', () => {
    expect(activeFilterCount(paramsFrom(new URLSearchParams('q=tema&page=2&after=x')))).toBe(0);
    expect(activeFilterCount(paramsFrom(new URLSearchParams('status=in_transit&late=1')))).toBe(2);
    expect(activeFilterCount(paramsFrom(new URLSearchParams('status=bogus&from=2026-11-01&to=2026-11-30&sort=create_time')))).toBe(3);
  });
});
