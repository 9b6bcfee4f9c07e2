// The shipments list's filter, sort and page, kept in the address so a view can be reloaded,
// shared, and reached from the dashboard's figures.
import { STATUS_OPTIONS, valueOf } from '@/utils/shipment';
import type { ListFilter } from '../api/shipments';

export type ListParams = {
  /** The search text as typed. */
  q: string;
  /** A status key (`in_transit`) or `all`. */
  status: string;
  /** `YYYY-MM-DD` creation days, '' for none. */
  from: string;
  to: string;
  late: boolean;
  /** '' (newest first) or an `order_by` of the API. */
  sort: string;
  /** Only this customer's shipments (its id), '' for all. */
  customer: string;
  /** The page's token ('' for the first) and its 1-based number. */
  after: string;
  page: number;
};

export const SORTS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'Newest first' },
  { value: 'create_time', label: 'Oldest first' },
  { value: 'expected_delivery_date', label: 'Expected delivery, earliest first' },
  { value: 'expected_delivery_date desc', label: 'Expected delivery, latest first' },
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function paramsFrom(search: URLSearchParams): ListParams {
  const text = (key: string) => search.get(key) ?? '';
  const status = text('status');
  const sort = text('sort');
  const page = Number.parseInt(text('page'), 10);
  return {
    q: text('q').slice(0, 200),
    status: STATUS_OPTIONS.some((o) => o.key === status) ? status : 'all',
    from: DAY.test(text('from')) ? text('from') : '',
    to: DAY.test(text('to')) ? text('to') : '',
    late: text('late') === '1' || text('late') === 'true',
    sort: SORTS.some((s) => s.value === sort) ? sort : '',
    customer: text('customer').slice(0, 100),
    after: text('after'),
    page: Number.isFinite(page) && page > 1 && text('after') ? page : 1,
  };
}

export function paramsTo(params: ListParams): URLSearchParams {
  const out = new URLSearchParams();
  if (params.q) out.set('q', params.q);
  if (params.status !== 'all') out.set('status', params.status);
  if (params.from) out.set('from', params.from);
  if (params.to) out.set('to', params.to);
  if (params.late) out.set('late', '1');
  if (params.sort) out.set('sort', params.sort);
  if (params.customer) out.set('customer', params.customer);
  if (params.after && params.page > 1) {
    out.set('page', String(params.page));
    out.set('after', params.after);
  }
  return out;
}

/** How many of the folded filters (status, days, lateness, sort) differ from their defaults. */
export function activeFilterCount(params: ListParams): number {
  return [params.status !== 'all', params.from !== '', params.to !== '', params.late, params.sort !== ''].filter(Boolean).length;
}

export const DATE_RANGE_MESSAGE = '"Created to" is before "Created from": choose a day on or after it.';

/** What is wrong with the creation days, in words; null when nothing is. */
export function dateRangeError(params: Pick<ListParams, 'from' | 'to'>): string | null {
  return params.from && params.to && params.to < params.from ? DATE_RANGE_MESSAGE : null;
}

/** The filter the API takes (without the page). */
export function filterOf(params: ListParams, query = params.q.trim()): ListFilter {
  return {
    status: valueOf(STATUS_OPTIONS, params.status),
    query,
    from: params.from,
    to: params.to,
    late: params.late,
    sort: params.sort,
    customerId: params.customer,
  };
}

/** The CSV export of what the list shows (every page). */
export function exportHref(params: ListParams): string {
  const out = new URLSearchParams();
  if (params.status !== 'all') out.set('status', params.status);
  if (params.q.trim()) out.set('q', params.q.trim());
  if (params.from) out.set('from', params.from);
  if (params.to) out.set('to', params.to);
  if (params.late) out.set('late', 'true');
  if (params.sort) out.set('sort', params.sort);
  if (params.customer) out.set('customer', params.customer);
  const query = out.toString();
  return `/exports/shipments.csv${query ? `?${query}` : ''}`;
}
