import { useAddressPages } from '@/hooks/use-address-pages';
import { serverMessage } from '@/lib/rpc-errors';
import { useCustomersPage } from '../api/customers';
import { customerParamsFrom, customerParamsTo, statusFilter, type CustomerListParams } from '../utils/list-params';

const CUSTOMER_PAGES = {
  from: customerParamsFrom,
  to: customerParamsTo,
  filterKey: (p: CustomerListParams) => `${p.status}\n${p.q.trim()}`,
};

/** The customers list: pages of 20 by a search text (debounced) and a status, all of it and the
 * page in the address (a change of filter goes back to page 1). */
export function useCustomerList() {
  const pages = useAddressPages(CUSTOMER_PAGES);
  const { params } = pages;
  const list = useCustomersPage({ query: params.q.trim(), status: statusFilter(params.status), pageToken: params.after });
  const loading = list.isFetching;
  const nextToken = list.data?.nextPageToken ?? '';

  return {
    params,
    search: pages.search,
    setSearch: pages.setSearch,
    setStatus: (status: CustomerListParams['status']) => pages.setFilter({ status }),
    customers: list.data?.customers ?? [],
    loading,
    pending: list.isPending,
    error: list.error && !loading ? serverMessage(list.error, 'Failed to load customers') : null,
    refresh: () => void list.refetch(),
    hasNext: !loading && nextToken !== '',
    hasPrevious: params.page > 1,
    next: () => pages.next(nextToken),
    previous: pages.previous,
  };
}
