// The customer's pickups (CustomerPortalService): the rules, the list, a request.
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { CustomerPortalService } from '@/gen/logistics/v1/customer_portal_service_pb';
import type { PickupState } from '@/gen/logistics/v1/customer_pb';
import { ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';

export function usePickupSettings() {
  return useQuery(CustomerPortalService.method.getPickupSettings, {});
}

/** One page of the customer's pickups; the page shown stays until the next one arrives. */
export function usePickups(state: PickupState, pageToken: string) {
  return useQuery(CustomerPortalService.method.listPickups, { pageSize: 20, state, pageToken }, { placeholderData: keepPreviousData });
}

/** The customer's pending shipments a pickup may cover (the server's cap: 100). */
export function usePendingShipments() {
  return useQuery(CustomerPortalService.method.listShipments, { pageSize: 100, status: ShipmentStatus.PENDING });
}

/** Requests a pickup; the portal's pickup lists load again. */
export function useCreatePickup() {
  const queryClient = useQueryClient();
  return useMutation(CustomerPortalService.method.createPickup, {
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: CustomerPortalService.method.listPickups, cardinality: undefined }),
      }),
  });
}
