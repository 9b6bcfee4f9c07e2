// The customers list's search, status filter and page, kept in the address so a view can be
// reloaded and shared.
import { CustomerStatus } from '@/gen/logistics/v1/customer_pb';
import { STATUS_CHOICES, type StatusKey } from './customer-form';

export type CustomerListParams = {
  q: string;
  status: StatusKey | 'all';
  /** The page's token ('' for the first) and its 1-based number. */
  after: string;
  page: number;
};

export function customerParamsFrom(search: URLSearchParams): CustomerListParams {
  const text = (key: string) => search.get(key) ?? '';
  const status = text('status');
  const page = Number.parseInt(text('page'), 10);
  return {
    q: text('q').slice(0, 200),
    status: STATUS_CHOICES.some((s) => s.key === status) ? (status as StatusKey) : 'all',
    after: text('after'),
    page: Number.isFinite(page) && page > 1 && text('after') ? page : 1,
  };
}

export function customerParamsTo(params: CustomerListParams): URLSearchParams {
  const out = new URLSearchParams();
  if (params.q) out.set('q', params.q);
  if (params.status !== 'all') out.set('status', params.status);
  if (params.after && params.page > 1) {
    out.set('page', String(params.page));
    out.set('after', params.after);
  }
  return out;
}

/** The status ListCustomers takes. */
export function statusFilter(status: CustomerListParams['status']): CustomerStatus {
  return STATUS_CHOICES.find((s) => s.key === status)?.value ?? CustomerStatus.UNSPECIFIED;
}
