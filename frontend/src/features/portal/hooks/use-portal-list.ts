import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { STATUS_OPTIONS, valueOf } from '@/utils/shipment';
import { usePortalShipments } from '../api/portal';
import { isBackwardsRange, portalParamsFrom, portalParamsTo, type PortalListParams } from '../utils/list-params';

const SEARCH_DEBOUNCE_MS = 300;

/** The portal list: pages of 20 of the customer's shipments, searched (debounced), filtered by
 * status and creation days; all of it and the page live in the address (a change of filter goes
 * back to page 1). */
export function usePortalList() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = portalParamsFrom(searchParams);
  const [typed, setTyped] = useState(params.q);
  // The address changed by other means (a link, Back): the box shows its text.
  const [addressQ, setAddressQ] = useState(params.q);
  if (addressQ !== params.q) {
    setAddressQ(params.q);
    if (params.q !== typed.trim()) setTyped(params.q);
  }
  const query = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);

  const update = useCallback(
    (change: Partial<PortalListParams>, keepPage = false) => {
      setSearchParams(
        () => {
          // The address as it is now, so two quick changes do not undo each other.
          const next = { ...portalParamsFrom(new URLSearchParams(window.location.search)), ...change };
          return portalParamsTo(keepPage ? next : { ...next, after: '', page: 1 });
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
  const filterKey = `${params.status}\n${params.q.trim()}\n${params.from}\n${params.to}`;
  const [earlier, setEarlier] = useState<{ key: string; tokens: string[] }>({ key: filterKey, tokens: [] });
  if (earlier.key !== filterKey) setEarlier({ key: filterKey, tokens: [] });

  const backwards = isBackwardsRange(params);
  const list = usePortalShipments(
    {
      query: params.q.trim(),
      status: valueOf(STATUS_OPTIONS, params.status),
      from: params.from,
      to: params.to,
      pageToken: params.after,
    },
    !backwards,
  );

  const nextToken = list.data?.nextPageToken ?? '';
  const next = () => {
    if (!nextToken) return;
    setEarlier((e) => {
      const tokens = [...e.tokens];
      tokens[params.page - 1] = params.after;
      return { ...e, tokens };
    });
    update({ after: nextToken, page: params.page + 1 }, true);
  };
  const previous = () => {
    if (params.page <= 1) return;
    // Unknown after a reload on a later page: back to the first.
    const token = earlier.key === filterKey ? earlier.tokens[params.page - 2] : undefined;
    if (token === undefined) update({});
    else update({ after: token, page: params.page - 1 }, true);
  };

  return {
    params,
    list,
    backwards,
    search: typed,
    setSearch: setTyped,
    setFilter: (change: Partial<PortalListParams>) => update(change),
    hasNext: !list.isFetching && nextToken !== '',
    next,
    previous,
  };
}
