// The staff's pickup calls (pickups.manage), through connect-query: every change loads the queue
// again (and the shipments a collection moved).
import { createConnectQueryKey, useInfiniteQuery, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import type { PickupState } from '@/gen/logistics/v1/customer_pb';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import { PickupService } from '@/gen/logistics/v1/pickup_service_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';

/** The server's largest page: most days' queue is one. */
const PAGE_SIZE = 100;

/** A day's queue: its first page, then more on request (a change loads every page shown again). */
export function usePickupQueue(filter: { date: { year: number; month: number; day: number }; area: string; state: PickupState }) {
  const query = useInfiniteQuery(
    PickupService.method.listPickups,
    { pageSize: PAGE_SIZE, ...filter, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined, placeholderData: keepPreviousData },
  );
  const { fetchNextPage, refetch } = query;
  return {
    pickups: query.data?.pages.flatMap((page) => page.pickups) ?? [],
    loading: query.isFetching,
    pending: query.isPending,
    reload: () => void refetch(),
    error: query.error,
    hasMore: query.hasNextPage,
    loadMore: () => void fetchNextPage(),
  };
}

/** The staff users an agent can be picked from (users.read). */
export function useStaffUsers(enabled: boolean) {
  return useQuery(AuthService.method.listUsers, { pageSize: 100 }, { enabled });
}

function useOnPickupChange() {
  const queryClient = useQueryClient();
  return () =>
    void Promise.all(
      [PickupService, ShipmentService].map((schema) =>
        queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema, cardinality: undefined }) }),
      ),
    );
}

export function useAssignPickup() {
  return useMutation(PickupService.method.assignPickup, { onSuccess: useOnPickupChange() }).mutateAsync;
}

export function useConfirmPickup() {
  return useMutation(PickupService.method.confirmPickup, { onSuccess: useOnPickupChange() }).mutateAsync;
}

export function useCompletePickup() {
  return useMutation(PickupService.method.completePickup, { onSuccess: useOnPickupChange() }).mutateAsync;
}

export function useFailPickup() {
  return useMutation(PickupService.method.failPickup, { onSuccess: useOnPickupChange() }).mutateAsync;
}
