// The portal's calls: the signed-in customer's user's own customer and shipments
// (CustomerPortalService and CustomerService.GetCurrentCustomer; the session cookie travels with them).
import { createConnectQueryKey, skipToken, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { CustomerPortalService } from '@/gen/logistics/v1/customer_portal_service_pb';
import { CustomerService } from '@/gen/logistics/v1/customer_service_pb';
import type { ProofOfDeliveryImageKind, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import type { ProofOfDeliveryImage } from '@/gen/logistics/v1/shipment_service_pb';
import { customerPortalClient } from '@/lib/portal-client';

const PAGE_SIZE = 20;

/** The list's filter and page, as the request takes them. */
export type PortalListRequest = {
  query: string;
  status: ShipmentStatus;
  from: string;
  to: string;
  pageToken: string;
};

function day(iso: string) {
  if (!iso) return undefined;
  const [year, month, dayOfMonth] = iso.split('-').map(Number);
  return { year, month, day: dayOfMonth };
}

/** The customer the signed-in user belongs to. */
export function useCurrentCustomer() {
  return useQuery(CustomerService.method.getCurrentCustomer, {});
}

/** One page of the customer's shipments; the page shown stays until the next one arrives. Not
 * asked for while `valid` is false (a date range the form knows is wrong). */
export function usePortalShipments(request: PortalListRequest, valid: boolean) {
  return useQuery(
    CustomerPortalService.method.listShipments,
    valid
      ? {
          pageSize: PAGE_SIZE,
          pageToken: request.pageToken,
          query: request.query,
          status: request.status,
          createDateFrom: day(request.from),
          createDateTo: day(request.to),
        }
      : skipToken,
    { placeholderData: keepPreviousData },
  );
}

/** One of the customer's shipments, in full. */
export function usePortalShipment(id: string) {
  return useQuery(CustomerPortalService.method.getShipment, { id });
}

/** Books a shipment; on success the portal's lists and views load again. */
export function useBookShipment() {
  const queryClient = useQueryClient();
  return useMutation(CustomerPortalService.method.createShipment, {
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: CustomerPortalService, cardinality: undefined }),
      }),
  });
}

/** A signature or photo of the proof of delivery of one of the customer's shipments (for the
 * shared ProofImage, which calls it once the image nears the screen). */
export function getPortalProofImage(trackingNumber: string, kind: ProofOfDeliveryImageKind, signal: AbortSignal): Promise<ProofOfDeliveryImage> {
  return customerPortalClient.getProofOfDeliveryImage({ trackingNumber, kind }, { signal, timeoutMs: 60_000 });
}
