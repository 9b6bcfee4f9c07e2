import { createConnectQueryKey, useInfiniteQuery } from '@connectrpc/connect-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NotificationService } from '@/gen/logistics/v1/notification_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { retryEmail, retryFailedEmails } from '../api/emails';
import { type EmailFilters, stateOf } from '../utils/filters';

const LOAD_FAILED = 'Failed to load emails';

/** The outbox under `filters`, newest first: the first page, more on request, and a reload. */
export function useEmails({ state, query: text }: EmailFilters) {
  const query = useInfiniteQuery(
    NotificationService.method.listNotifications,
    { pageSize: 50, state: stateOf({ state, query: text }), query: text, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined },
  );
  const { refetch, fetchNextPage } = query;
  const loading = query.isFetching;
  const pages = query.data?.pages ?? [];
  return {
    emails: pages.flatMap((page) => page.notifications),
    backlog: pages.at(-1)?.backlog ?? 0,
    loading,
    // A new load hides the last failure until it fails too.
    error: query.error && !loading ? serverMessage(query.error, LOAD_FAILED) : null,
    hasMore: query.hasNextPage,
    reload: () => void refetch(),
    loadMore: () => void fetchNextPage(),
  };
}

/** A retry puts e-mails back in the queue: the outbox loads again. */
function useOutboxMutation<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: NotificationService.method.listNotifications, cardinality: undefined }),
      }),
  }).mutateAsync;
}

export const useRetryEmail = () => useOutboxMutation(retryEmail);
export const useRetryFailedEmails = () => useOutboxMutation(retryFailedEmails);
