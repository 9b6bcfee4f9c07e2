import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { serverMessage } from '@/lib/rpc-errors';
import { useCustomersPage } from '../api/customers';
import { customerParamsFrom, customerParamsTo, statusFilter, type CustomerListParams } from '../utils/list-params';

const SEARCH_DEBOUNCE_MS = 300;

/** The customers list: pages of 20 by a search text (debounced) and a status, all of it and the
 * page in the address (a change of filter goes back to page 1). */
export function useCustomerList() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = customerParamsFrom(searchParams);
  const [typed, setTyped] = useState(params.q);
  // The address changed by other means (a link, Back): the box shows its text.
  const [addressQ, setAddressQ] = useState(params.q);
  if (addressQ !== params.q) {
    setAddressQ(params.q);
    if (params.q !== typed.trim()) setTyped(params.q);
  }
  const query = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (change: Partial<CustomerListParams>, keepPage = false) => {
      setSearchParams(
        () => {
          // The address as it is now, so two quick changes do not undo each other.
          const next = { ...customerParamsFrom(new URLSearchParams(window.location.search)), ...change };
          return customerParamsTo(keepPage ? next : { ...next, after: '', page: 1 });
        },
        { replace: !keepPage },
      );
    },
    [setSearchParams],
  );

  useEffect(() => {
    if (query !== params.q.trim()) update({ q: query });
  }, [query, params.q, update]);

  // Tokens of the pages before this one, while the filter stays the same.
  const filterKey = `${params.status}\n${params.q.trim()}`;
  const [earlier, setEarlier] = useState<{ key: string; tokens: string[] }>({ key: filterKey, tokens: [] });
  if (earlier.key !== filterKey) setEarlier({ key: filterKey, tokens: [] });

  const list = useCustomersPage({ query: params.q.trim(), status: statusFilter(params.status), pageToken: params.after });
  const loading = list.isFetching;
  const nextToken = list.data?.nextPageToken ?? '';

  return {
    params,
    search: typed,
    setSearch: setTyped,
    setStatus: (status: CustomerListParams['status']) => update({ status }),
    customers: list.data?.customers ?? [],
    loading,
    pending: list.isPending,
    error: list.error && !loading ? serverMessage(list.error, 'Failed to load customers') : null,
    refresh: () => void list.refetch(),
    hasNext: !loading && nextToken !== '',
    hasPrevious: params.page > 1,
    next: () => {
      if (!nextToken) return;
      setEarlier((e) => {
        const tokens = [...e.tokens];
        tokens[params.page - 1] = params.after;
        return { ...e, tokens };
      });
      update({ after: nextToken, page: params.page + 1 }, true);
    },
    previous: () => {
      if (params.page <= 1) return;
      // Unknown after a reload on a later page: back to the first.
      const token = earlier.key === filterKey ? earlier.tokens[params.page - 2] : undefined;
      if (token === undefined) update({});
      else update({ after: token, page: params.page - 1 }, true);
    },
  };
}
