import { useCallback, useEffect, useRef, useState } from 'react';
import type { Notification } from '@/gen/logistics/v1/notification_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { listEmails } from '../api/emails';

const LOAD_FAILED = 'Failed to load emails';

/** The outbox, newest first: the first page, more on request, and a reload. */
export function useEmails() {
  const [emails, setEmails] = useState<Notification[]>([]);
  const [backlog, setBacklog] = useState(0);
  const [nextPageToken, setNextPageToken] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<AbortController | null>(null);

  const load = useCallback(async (pageToken: string) => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setLoading(true);
    setError(null);
    try {
      const page = await listEmails(pageToken, controller.signal);
      setEmails((shown) => (pageToken ? [...shown, ...page.notifications] : page.notifications));
      setBacklog(page.backlog);
      setNextPageToken(page.nextPageToken);
    } catch (err) {
      if (!controller.signal.aborted) setError(serverMessage(err, LOAD_FAILED));
    } finally {
      if (current.current === controller) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load('');
    return () => current.current?.abort();
  }, [load]);

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
