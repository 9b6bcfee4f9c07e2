import { useCallback, useEffect, useRef, useState } from 'react';
import type { Notification } from '@/gen/logistics/v1/notification_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { listEmails } from '../api/emails';
import type { EmailFilters } from '../utils/filters';

const LOAD_FAILED = 'Failed to load emails';

/** The outbox under `filters`, newest first: the first page, more on request, and a reload. */
export function useEmails({ state, query }: EmailFilters) {
  const [emails, setEmails] = useState<Notification[]>([]);
  const [backlog, setBacklog] = useState(0);
  const [nextPageToken, setNextPageToken] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<AbortController | null>(null);

  /** Fetches a page (the first one for ''); the caller has set `loading`. */
  const fetchPage = useCallback((pageToken: string): Promise<void> => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    return listEmails({ state, query }, pageToken, controller.signal)
      .then(
        (page) => {
          setEmails((shown) => (pageToken ? [...shown, ...page.notifications] : page.notifications));
          setBacklog(page.backlog);
          setNextPageToken(page.nextPageToken);
        },
        (err: unknown) => {
          if (!controller.signal.aborted) setError(serverMessage(err, LOAD_FAILED));
        },
      )
      .finally(() => {
        if (current.current === controller) setLoading(false);
      });
  }, [state, query]);

  const load = (pageToken: string) => {
    setLoading(true);
    setError(null);
    return fetchPage(pageToken);
  };

  // The first page: `loading` starts true.
  useEffect(() => {
    void fetchPage('');
    return () => current.current?.abort();
  }, [fetchPage]);

  const replace = (updated: Notification) => setEmails((shown) => shown.map((e) => (e.id === updated.id ? updated : e)));

  return {
    emails,
    backlog,
    loading,
    error,
    hasMore: nextPageToken !== '',
    reload: () => load(''),
    loadMore: () => load(nextPageToken),
    replace,
  };
}
