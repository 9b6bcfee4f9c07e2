// The portal list's search, status, creation days and page, kept in the address so a view can be
// reloaded and shared. Pure.
import { STATUS_OPTIONS } from '@/utils/shipment';

export type PortalListParams = {
  q: string;
  /** A status key (`in_transit`) or `all`. */
  status: string;
  /** `YYYY-MM-DD` creation days, '' for none. */
  from: string;
  to: string;
  /** The page's token ('' for the first) and its 1-based number. */
  after: string;
  page: number;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function portalParamsFrom(search: URLSearchParams): PortalListParams {
  const text = (key: string) => search.get(key) ?? '';
  const status = text('status');
  const page = Number.parseInt(text('page'), 10);
  return {
    q: text('q').slice(0, 200),
    status: STATUS_OPTIONS.some((o) => o.key === status) ? status : 'all',
    from: DAY.test(text('from')) ? text('from') : '',
    to: DAY.test(text('to')) ? text('to') : '',
    after: text('after'),
    page: Number.isFinite(page) && page > 1 && text('after') ? page : 1,
  };
}

export function portalParamsTo(params: PortalListParams): URLSearchParams {
  const out = new URLSearchParams();
  if (params.q) out.set('q', params.q);
  if (params.status !== 'all') out.set('status', params.status);
  if (params.from) out.set('from', params.from);
  if (params.to) out.set('to', params.to);
  if (params.after && params.page > 1) {
    out.set('page', String(params.page));
    out.set('after', params.after);
  }
  return out;
}

/** Whether any filter narrows the list (then an empty list is "nothing matches", not "none yet"). */
export function isFiltered(params: PortalListParams): boolean {
  return params.q.trim() !== '' || params.status !== 'all' || params.from !== '' || params.to !== '';
}

/** True when "to" is before "from": the list is not asked for. */
export function isBackwardsRange(params: Pick<PortalListParams, 'from' | 'to'>): boolean {
  return params.from !== '' && params.to !== '' && params.to < params.from;
}

/** The CSV export of every shipment the list's filter finds (all pages), downloaded with the
 * session cookie; the page token is not part of it. */
export function portalExportHref(params: Pick<PortalListParams, 'q' | 'status' | 'from' | 'to'>): string {
  const out = new URLSearchParams();
  if (params.status !== 'all') out.set('status', params.status);
  if (params.q.trim()) out.set('q', params.q.trim());
  if (params.from) out.set('from', params.from);
  if (params.to) out.set('to', params.to);
  const query = out.toString();
  return `/exports/portal/shipments.csv${query ? `?${query}` : ''}`;
}
