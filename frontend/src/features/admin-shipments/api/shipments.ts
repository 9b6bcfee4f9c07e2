// The admin's shipment calls (all need an admin session; the cookie travels with them).
import { useCallback } from 'react';
import { createConnectQueryKey, skipToken, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeliveryAttemptFailure, ProofOfDeliveryImageKind, Shipment, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import {
  ShipmentService,
  type BatchUpdateShipmentTrackingResponse,
  type ProofOfDeliveryImage,
} from '@/gen/logistics/v1/shipment_service_pb';
import { AuditService } from '@/gen/logistics/v1/audit_service_pb';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import { Role } from '@/gen/logistics/v1/user_pb';
import { CustomerService } from '@/gen/logistics/v1/customer_service_pb';
import { shipmentClient } from '@/lib/transport';
import type { ShipmentInit, ShipmentUpdate } from '../utils/shipment-form';

const TIMEOUT_MS = 15_000;

export const PAGE_SIZE = 20;

/** One page of the list; the page shown stays until the next one arrives. Not asked for while
 * `valid` is false (a filter the form already knows is wrong). */
export function useShipmentsPage(params: ListFilter & { pageToken: string }, valid = true) {
  return useQuery(
    ShipmentService.method.listShipments,
    valid ? { pageSize: PAGE_SIZE, pageToken: params.pageToken, ...listRequest(params) } : skipToken,
    { placeholderData: keepPreviousData },
  );
}

export function useShipment(id: string) {
  return useQuery(ShipmentService.method.getShipment, { id });
}

/** The audit entries about one shipment, newest first (the latest 100). */
/** A customer's name, for the shipments a customer is attached to (customers.read). */
export function useCustomerName(id: string, enabled = true) {
  const query = useQuery(CustomerService.method.getCustomer, { id }, { enabled: enabled && id !== '' });
  return query.data?.name;
}

export function useShipmentActivity(id: string) {
  return useQuery(AuditService.method.listAuditEntries, { target: id, pageSize: 100 });
}

export function useShipmentStatistics() {
  return useQuery(ShipmentService.method.getShipmentStatistics, {});
}

/** After a change to shipments: every view of them (the list, the figures, a shipment's details
 * and its activity) loads again. */
function useShipmentsChanged(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all(
      [ShipmentService, AuditService].map((schema) =>
        queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema, cardinality: undefined }) }),
      ),
    );
  }, [queryClient]);
}

/** A change to shipments; on success, every view of them loads again. */
function useShipmentsMutation<Input, Output>(call: (input: Input) => Promise<Output>) {
  const changed = useShipmentsChanged();
  // Not awaited: the dialog closes at once, the views follow.
  return useMutation({ mutationFn: call, onSuccess: () => void changed() }).mutateAsync;
}

/** The enabled couriers among the staff (users.read), for giving them shipments. */
export function useCouriers() {
  const users = useQuery(AuthService.method.listUsers, { pageSize: 100 });
  return { ...users, couriers: (users.data?.users ?? []).filter((u) => u.role === Role.COURIER && !u.disabled) };
}

export const useCreateShipment = () => useShipmentsMutation(createShipment);
export const useAssignToCourier = () => useShipmentsMutation(assignToCourier);
export const useUpdateShipment = () => useShipmentsMutation(updateShipment);
export const useDeleteShipment = () => useShipmentsMutation(deleteShipment);
export const useUpdateTracking = () => useShipmentsMutation(updateTracking);
export const useBatchUpdateTracking = () => useShipmentsMutation(batchUpdateTracking);
export const useRecordProofOfDelivery = () =>
  useShipmentsMutation(({ id, input }: { id: string; input: ProofOfDeliveryInput }) => recordProofOfDelivery(id, input));

/** Gives the shipments to a courier's round of a day (`yyyy-mm-dd`), or takes them off (no courier). */
function assignToCourier(input: { ids: string[]; courier?: { id: string; email: string }; date: string }) {
  const [year, month, day] = input.date.split('-').map(Number);
  return shipmentClient.assignShipmentsToCourier(
    {
      shipmentIds: input.ids,
      courierId: input.courier?.id ?? '',
      courierEmail: input.courier?.email ?? '',
      date: input.courier ? { year, month, day } : undefined,
    },
    { timeoutMs: TIMEOUT_MS },
  );
}

function createShipment(shipment: ShipmentInit): Promise<Shipment> {
  return shipmentClient.createShipment({ shipment }, { timeoutMs: TIMEOUT_MS });
}

function updateShipment(update: ShipmentUpdate): Promise<Shipment> {
  return shipmentClient.updateShipment(
    {
      shipment: update.shipment,
      updateMask: { paths: update.paths },
      remarks: update.remarks,
      remarksPublic: update.remarksPublic,
      failedAttempt: update.failedAttempt,
    },
    { timeoutMs: TIMEOUT_MS },
  );
}

async function deleteShipment(id: string): Promise<void> {
  await shipmentClient.deleteShipment({ id }, { timeoutMs: TIMEOUT_MS });
}

function updateTracking(input: {
  id: string;
  status: ShipmentStatus;
  currentLocation: string;
  remarks: string;
  remarksPublic: boolean;
  /** The update records a failed delivery attempt, for this reason (never with DELIVERED). */
  failedAttempt: DeliveryAttemptFailure;
}): Promise<Shipment> {
  return shipmentClient.updateShipmentTracking(input, { timeoutMs: TIMEOUT_MS });
}

/** What RecordProofOfDelivery takes: the recipient's name, and the signature (PNG) and photo
 * (JPEG or PNG) bytes when given. */
export type ProofOfDeliveryInput = { recipientName: string; signaturePng?: Uint8Array; photo?: Uint8Array };

/** Records (or replaces) who received a delivered shipment. A photo of 8 MB takes a while on a
 * phone's connection, hence the longer timeout. */
function recordProofOfDelivery(id: string, input: ProofOfDeliveryInput): Promise<Shipment> {
  return shipmentClient.recordProofOfDelivery(
    {
      id,
      recipientName: input.recipientName,
      signaturePng: input.signaturePng ?? new Uint8Array(),
      photo: input.photo ?? new Uint8Array(),
    },
    { timeoutMs: 120_000 },
  );
}

/** The signature or the photo of a shipment's proof of delivery. */
export function getProofOfDeliveryImage(
  trackingNumber: string,
  kind: ProofOfDeliveryImageKind,
  signal?: AbortSignal,
): Promise<ProofOfDeliveryImage> {
  return shipmentClient.getProofOfDeliveryImage({ trackingNumber, kind }, { signal, timeoutMs: 60_000 });
}

/** Which shipments a list shows: also what a bulk change and an export take. */
export type ListFilter = {
  status: ShipmentStatus;
  query: string;
  /** `YYYY-MM-DD`, creation days, both included; '' for none. */
  from: string;
  to: string;
  late: boolean;
  sort: string;
  /** Only this customer's shipments; '' for all. */
  customerId: string;
};

function day(text: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : undefined;
}

function listRequest(filter: ListFilter) {
  return {
    status: filter.status,
    query: filter.query,
    createDateFrom: day(filter.from),
    createDateTo: day(filter.to),
    late: filter.late,
    orderBy: filter.sort,
    customerId: filter.customerId,
  };
}

/** Sets one status and location, with one remark, on the given shipments or all the filter matches. */
function batchUpdateTracking(input: {
  ids: string[];
  filter?: ListFilter;
  status: ShipmentStatus;
  currentLocation: string;
  remarks: string;
  remarksPublic: boolean;
}): Promise<BatchUpdateShipmentTrackingResponse> {
  return shipmentClient.batchUpdateShipmentTracking(
    {
      ids: input.ids,
      filter: input.filter && listRequest(input.filter),
      status: input.status,
      currentLocation: input.currentLocation,
      remarks: input.remarks,
      remarksPublic: input.remarksPublic,
    },
    { timeoutMs: 120_000 },
  );
}
