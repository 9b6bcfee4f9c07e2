import { describe, expect, it } from 'vitest';
import { isBackwardsRange, isFiltered, portalExportHref, portalParamsFrom, portalParamsTo } from './list-params';

describe('the portal list address', () => {
  it('reads what it knows and drops what it does not', () => {
    const params = portalParamsFrom(new URLSearchParams('q=PSE1&status=in_transit&from=2026-01-02&to=nope&page=3&after=tok'));
    expect(params).toEqual({ q: 'PSE1', status: 'in_transit', from: '2026-01-02', to: '', after: 'tok', page: 3 });
    expect(portalParamsFrom(new URLSearchParams('status=lost&page=2')).status).toBe('all');
    // A page number without its token is the first page.
    expect(portalParamsFrom(new URLSearchParams('page=2')).page).toBe(1);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(portalParamsTo(portalParamsFrom(new URLSearchParams(''))).toString()).toBe('');
    const search = 'q=box&status=delivered&from=2026-01-01&to=2026-02-01&page=2&after=t2';
    expect(portalParamsTo(portalParamsFrom(new URLSearchParams(search))).toString()).toBe(search);
  });

  it('tells a filtered list and a backwards range', () => {
    expect(isFiltered(portalParamsFrom(new URLSearchParams('')))).toBe(false);
    expect(isFiltered(portalParamsFrom(new URLSearchParams('status=pending')))).toBe(true);
    expect(isBackwardsRange({ from: '2026-02-01', to: '2026-01-01' })).toBe(true);
    expect(isBackwardsRange({ from: '2026-01-01', to: '' })).toBe(false);
  });

  it("exports what the filter finds, every page, with the staff export's names", () => {
    expect(portalExportHref(portalParamsFrom(new URLSearchParams('')))).toBe('/exports/portal/shipments.csv');
    const params = portalParamsFrom(new URLSearchParams('q=%20tiles%20&status=in_transit&from=2026-01-02&to=2026-02-03&page=2&after=tok'));
    expect(portalExportHref(params)).toBe('/exports/portal/shipments.csv?status=in_transit&q=tiles&from=2026-01-02&to=2026-02-03');
    expect(portalExportHref({ q: 'a&b=c', status: 'all', from: '', to: '' })).toBe('/exports/portal/shipments.csv?q=a%26b%3Dc');
  });
});
