// The account requests' state filter and page, kept in the address.
import { AccountRequestState } from '@/gen/logistics/v1/customer_pb';

export const REQUEST_STATES = [
  { key: 'pending', value: AccountRequestState.PENDING, label: 'Pending', tone: 'yellow' },
  { key: 'approved', value: AccountRequestState.APPROVED, label: 'Approved', tone: 'green' },
  { key: 'declined', value: AccountRequestState.DECLINED, label: 'Declined', tone: 'grey' },
] as const;

type RequestStateKey = (typeof REQUEST_STATES)[number]['key'];

export type RequestListParams = {
  state: RequestStateKey | 'all';
  /** The page's token ('' for the first) and its 1-based number. */
  after: string;
  page: number;
};

export function requestParamsFrom(search: URLSearchParams): RequestListParams {
  const state = search.get('state') ?? '';
  const after = search.get('after') ?? '';
  const page = Number.parseInt(search.get('page') ?? '', 10);
  return {
    state: REQUEST_STATES.some((s) => s.key === state) ? (state as RequestStateKey) : 'all',
    after,
    page: Number.isFinite(page) && page > 1 && after ? page : 1,
  };
}

export function requestParamsTo(params: RequestListParams): URLSearchParams {
  const out = new URLSearchParams();
  if (params.state !== 'all') out.set('state', params.state);
  if (params.after && params.page > 1) {
    out.set('page', String(params.page));
    out.set('after', params.after);
  }
  return out;
}

export function requestStateFilter(state: RequestListParams['state']): AccountRequestState {
  return REQUEST_STATES.find((s) => s.key === state)?.value ?? AccountRequestState.UNSPECIFIED;
}

export function requestState(state: AccountRequestState) {
  return REQUEST_STATES.find((s) => s.value === state) ?? { key: 'unknown', label: 'Unknown', tone: 'grey' as const };
}

/** The tab's badge: nothing for none, "99+" past 99. */
export function countBadge(count: number | undefined): string {
  if (!count) return '';
  return count > 99 ? '99+' : String(count);
}
