import { useCallback, useEffect, useRef, useState } from 'react';
import type { AuditEntry } from '@/gen/logistics/v1/audit_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { listAuditEntries } from '../api/audit';
import type { AuditFilters } from '../utils/filters';

const LOAD_FAILED = 'Failed to load the audit log';

/** The entries matching `filters`, newest first: the first page, then more on request. Mount
 * it afresh (a React key) for other filters. */
export function useAuditEntries(filters: AuditFilters) {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [nextPageToken, setNextPageToken] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<AbortController | null>(null);
  const { user, action, target, from, to } = filters;

  /** Fetches a page (the first one for ''); the caller has set `loading`. */
  const fetchPage = useCallback(
    (pageToken: string) => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      listAuditEntries({ user, action, target, from, to }, pageToken, controller.signal)
        .then(
          (page) => {
            setEntries((shown) => (pageToken ? [...shown, ...page.entries] : page.entries));
            setNextPageToken(page.nextPageToken);
          },
          (err: unknown) => {
            if (!controller.signal.aborted) setError(serverMessage(err, LOAD_FAILED));
          },
        )
        .finally(() => {
          if (current.current === controller) setLoading(false);
        });
    },
    [user, action, target, from, to],
  );

  // The first page: `loading` starts true.
  useEffect(() => {
    fetchPage('');
    return () => current.current?.abort();
  }, [fetchPage]);

  const load = (pageToken: string) => {
    setLoading(true);
    setError(null);
    fetchPage(pageToken);
  };

  return {
    entries,
    loading,
    error,
    hasMore: nextPageToken !== '',
    loadMore: () => load(nextPageToken),
    reload: () => load(''),
  };
}
