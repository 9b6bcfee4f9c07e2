import { useCallback, useEffect, useRef, useState } from 'react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { STATUS_OPTIONS, valueOf } from '@/utils/shipment';
import { listShipments } from '../api/shipments';

const LOAD_FAILURE_MESSAGE = 'Failed to load data';
const SEARCH_DEBOUNCE_MS = 300;

type ShipmentListState = {
  shipments: Shipment[];
  totalSize: number;
  loading: boolean;
  /** Set when the last load failed. */
  error: string | null;
  /** 0-based. */
  pageIndex: number;
  hasNext: boolean;
  hasPrevious: boolean;
};

type Pages = { filterKey: string; tokens: string[]; index: number };

/**
 * The admin list: server-side pages of 20, newest first, filtered by status and a search text
 * (debounced, back to page 1 on change). Toasts only when the first load or Refresh fails.
 */
export function useShipmentList() {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const query = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const filterKey = `${status}\n${query}`;

  // The page tokens seen so far for this filter; a new filter starts again at page 1.
  const [pages, setPages] = useState<Pages>({ filterKey, tokens: [''], index: 0 });
  let current = pages;
  if (pages.filterKey !== filterKey) {
    current = { filterKey, tokens: [''], index: 0 };
    setPages(current);
  }

  const [reloadCount, setReloadCount] = useState(0);
  const toastNext = useRef(true);
  const [data, setData] = useState<{ shipments: Shipment[]; totalSize: number; nextPageToken: string }>({
    shipments: [],
    totalSize: 0,
    nextPageToken: '',
  });
  const [error, setError] = useState<string | null>(null);

  const pageToken = current.tokens[current.index] ?? '';
  // Which load the data and error answer; loading until it is the latest one.
  const requestKey = `${filterKey}\n${pageToken}\n${reloadCount}`;
  const [loadedKey, setLoadedKey] = useState<string | null>(null);
  const loading = loadedKey !== requestKey;

  // A page left empty by a deletion: show the one before it.
  if (!loading && !error && data.shipments.length === 0 && current.index > 0) {
    current = { ...current, index: current.index - 1 };
    setPages(current);
  }

  useEffect(() => {
    const controller = new AbortController();
    listShipments({ status: valueOf(STATUS_OPTIONS, status), query, pageToken }, controller.signal).then(
      (response) => {
        if (controller.signal.aborted) return;
        setData({
          shipments: response.shipments,
          totalSize: response.totalSize,
          nextPageToken: response.nextPageToken,
        });
        setError(null);
        setLoadedKey(requestKey);
        toastNext.current = false;
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setError(serverMessage(err, LOAD_FAILURE_MESSAGE));
        setLoadedKey(requestKey);
        if (toastNext.current) {
          toastNext.current = false;
          toast.error(LOAD_FAILURE_MESSAGE, { toastId: `load-failed-${Date.now()}` });
        }
      },
    );
    return () => controller.abort();
  }, [status, query, pageToken, requestKey]);

  /** Loads the page again, with a toast if it fails (the Refresh button). */
  const refresh = useCallback(() => {
    toastNext.current = true;
    setReloadCount((n) => n + 1);
  }, []);

  /** Loads the page again quietly (after a change). */
  const reload = useCallback(() => setReloadCount((n) => n + 1), []);

  /** Back to page 1 and reload (after a creation: the newest shipment comes first). */
  const reloadFirstPage = useCallback(() => {
    setPages((p) => ({ ...p, tokens: [''], index: 0 }));
    setReloadCount((n) => n + 1);
  }, []);

  const next = useCallback(() => {
    if (!data.nextPageToken) return;
    const token = data.nextPageToken;
    setPages((p) => ({ ...p, tokens: [...p.tokens.slice(0, p.index + 1), token], index: p.index + 1 }));
  }, [data.nextPageToken]);

  const previous = useCallback(() => {
    setPages((p) => ({ ...p, index: Math.max(0, p.index - 1) }));
  }, []);

  const state: ShipmentListState = {
    shipments: data.shipments,
    totalSize: data.totalSize,
    loading,
    error,
    pageIndex: current.index,
    hasNext: !loading && data.nextPageToken !== '',
    hasPrevious: current.index > 0,
  };

  return { state, search, setSearch, status, setStatus, refresh, reload, reloadFirstPage, next, previous };
}
