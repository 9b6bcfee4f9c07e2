// The exceptions queue (ShipmentExceptionService) through connect-query: the list and the counts
// load again after an assignment or a resolution, and after any other change made in the back
// office (a status change can open or close an exception).
import { useEffect } from 'react';
import { createConnectQueryKey, useInfiniteQuery, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import { ShipmentExceptionService } from '@/gen/logistics/v1/shipment_exception_service_pb';
import type { ShipmentExceptionKind, ShipmentExceptionState } from '@/gen/logistics/v1/shipment_exception_service_pb';

/** The server's own page (0 means 50). */
const PAGE_SIZE = 50;

/** The queue: its first page, then more on request (a change loads every page shown again). */
export function useExceptionQueue(filter: { kind: ShipmentExceptionKind; state: ShipmentExceptionState; assigneeId: string }) {
  useRefreshAfterChanges();
  const query = useInfiniteQuery(
    ShipmentExceptionService.method.listShipmentExceptions,
    { pageSize: PAGE_SIZE, ...filter, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined, placeholderData: keepPreviousData },
  );
  const { fetchNextPage, refetch } = query;
  return {
    exceptions: query.data?.pages.flatMap((page) => page.exceptions) ?? [],
    totalSize: Number(query.data?.pages[0]?.totalSize ?? 0n),
    loading: query.isFetching,
    pending: query.isPending,
    error: query.error,
    reload: () => void refetch(),
    hasMore: query.hasNextPage,
    loadMore: () => void fetchNextPage(),
  };
}

/** The open exceptions per kind, and how many are the caller's. */
export function useExceptionCounts() {
  useRefreshAfterChanges();
  return useQuery(ShipmentExceptionService.method.getShipmentExceptionCounts, {});
}

/** The staff users an exception can be given to (users.read). */
export function useStaffUsers(enabled: boolean) {
  return useQuery(AuthService.method.listUsers, { pageSize: 100 }, { enabled });
}

function useInvalidateExceptions() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      queryKey: createConnectQueryKey({ schema: ShipmentExceptionService, cardinality: undefined }),
    });
}

/** Whatever the back office changes (a status, a proof of delivery, a setting) may open or close
 * an exception: the queue and the counts on screen load again after every successful change. */
function useRefreshAfterChanges() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') {
          // One load for several listeners (the page and the counts) and for the change's own
          // invalidation: a load under way is kept rather than started again.
          void queryClient.invalidateQueries(
            { queryKey: createConnectQueryKey({ schema: ShipmentExceptionService, cardinality: undefined }) },
            { cancelRefetch: false },
          );
        }
      }),
    [queryClient],
  );
}

export function useAssignException() {
  return useMutation(ShipmentExceptionService.method.assignShipmentException, { onSuccess: useInvalidateExceptions() }).mutateAsync;
}

export function useResolveException() {
  return useMutation(ShipmentExceptionService.method.resolveShipmentException, { onSuccess: useInvalidateExceptions() }).mutateAsync;
}
