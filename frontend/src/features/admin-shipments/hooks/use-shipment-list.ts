import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ListShipmentsResponse } from '@/gen/logistics/v1/shipment_service_pb';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useShipmentsPage } from '../api/shipments';
import { DATE_RANGE_MESSAGE, dateRangeError, filterOf, paramsFrom, paramsTo, type ListParams } from '../utils/list-params';

const LOAD_FAILURE_MESSAGE = 'Failed to load data';
const SEARCH_DEBOUNCE_MS = 300;
const EMPTY_PAGE: Pick<ListShipmentsResponse, 'shipments' | 'totalSize' | 'nextPageToken'> = {
  shipments: [],
  totalSize: 0,
  nextPageToken: '',
};

type ShipmentListState = {
  shipments: ListShipmentsResponse['shipments'];
  totalSize: number;
  loading: boolean;
  /** Set when the last load failed. */
  error: string | null;
  /** 0-based. */
  pageIndex: number;
  hasNext: boolean;
  hasPrevious: boolean;
};

/**
 * The admin list: server-side pages of 20 filtered by status, a search text (debounced),
 * creation days and lateness, sorted as chosen; all of it and the page live in the address
 * (a change of filter goes back to page 1). A load that failed on the first visit or on
 * Refresh shows a toast; a list that loaded shows none.
 */
export function useShipmentList() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = paramsFrom(searchParams);
  // What the search box shows at once; the address follows after the debounce.
  const [typed, setTyped] = useState(params.q);
  // The address changed by other means (a link, Back): the box shows its text.
  const [addressQ, setAddressQ] = useState(params.q);
  if (addressQ !== params.q) {
    setAddressQ(params.q);
    if (params.q !== typed.trim()) setTyped(params.q);
  }
  const query = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const { status, from, to, late, sort, customer, after, page } = params;

  const update = useCallback(
    (change: Partial<ListParams>, keepPage = false) => {
      setSearchParams(
        () => {
          // The address as it is now: the updater's own argument is the last rendered one, so a
          // second change made before the page rendered the first would undo it.
          const next = { ...paramsFrom(new URLSearchParams(window.location.search)), ...change };
          return paramsTo(keepPage ? next : { ...next, after: '', page: 1 });
        },
        { replace: !keepPage },
      );
    },
    [setSearchParams],
  );

  // The debounced search text reaches the address (and page 1).
  useEffect(() => {
    if (query !== params.q.trim()) update({ q: query });
  }, [query, params.q, update]);

  // Tokens of the pages before this one, while the filter stays the same.
  const filterKey = `${status}\n${params.q.trim()}\n${from}\n${to}\n${late}\n${sort}\n${customer}`;
  const [earlier, setEarlier] = useState<{ key: string; tokens: string[] }>({ key: filterKey, tokens: [] });
  if (earlier.key !== filterKey) setEarlier({ key: filterKey, tokens: [] });

  // A range the form knows is wrong is said next to its field and never sent.
  const rangeError = dateRangeError(params);
  const list = useShipmentsPage({ ...filterOf(params), pageToken: after }, rangeError === null);
  // A failed load keeps showing the rows of the last one that worked.
  const [lastData, setLastData] = useState(EMPTY_PAGE);
  if (list.data && list.data !== lastData) setLastData(list.data);
  const data = list.data ?? lastData;
  const loading = list.isFetching;
  // The server's refusal of a creation day is said in words next to the days, not as its sentence.
  const dateRefused = !!list.error && fieldViolations(list.error).some((v) => v.field.includes('create_date'));
  const dateError = rangeError ?? (dateRefused ? DATE_RANGE_MESSAGE : null);
  const error = list.error && !dateRefused ? serverMessage(list.error, LOAD_FAILURE_MESSAGE) : null;

  const toastNext = useRef(true);
  useEffect(() => {
    if (list.isFetching || list.isPending) return;
    if (list.error && !dateRefused && toastNext.current) toast.error(LOAD_FAILURE_MESSAGE, { toastId: `load-failed-${Date.now()}` });
    toastNext.current = false;
  }, [list.isFetching, list.isPending, list.error, dateRefused]);

  const { refetch } = list;
  /** Loads the page again, with a toast if it fails (the Refresh button). */
  const refresh = useCallback(() => {
    if (rangeError) return;
    toastNext.current = true;
    void refetch();
  }, [refetch, rangeError]);

  /** Back to page 1 (after a creation: the newest shipment comes first; the list reloads
   * because the creation invalidated it). */
  const toFirstPage = useCallback(() => update({}), [update]);

  const next = () => {
    if (!data.nextPageToken) return;
    setEarlier((e) => {
      const tokens = [...e.tokens];
      tokens[page - 1] = after;
      return { ...e, tokens };
    });
    update({ after: data.nextPageToken, page: page + 1 }, true);
  };

  const previous = () => {
    if (page <= 1) return;
    // Unknown after a reload on a later page: back to the first.
    const token = earlier.key === filterKey ? earlier.tokens[page - 2] : undefined;
    if (token === undefined) update({});
    else update({ after: token, page: page - 1 }, true);
  };

  const state: ShipmentListState = {
    shipments: data.shipments,
    totalSize: data.totalSize,
    loading,
    error,
    pageIndex: page - 1,
    hasNext: !loading && data.nextPageToken !== '',
    hasPrevious: page > 1,
  };

  return {
    state,
    params,
    /** What is wrong with the creation days, in words (shown under "Created to"). */
    dateError,
    filter: filterOf(params),
    search: typed,
    setSearch: setTyped,
    status,
    setStatus: (value: string) => update({ status: value }),
    setFilter: (change: Partial<ListParams>) => update(change),
    refresh,
    toFirstPage,
    next,
    previous,
  };
}
