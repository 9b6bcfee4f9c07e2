// The admin's shipment calls (all need an admin session; the cookie travels with them).
import type { ProofOfDeliveryImageKind, Shipment, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import type {
  BatchUpdateShipmentTrackingResponse,
  ListShipmentsResponse,
  ProofOfDeliveryImage,
  ShipmentStatistics,
} from '@/gen/logistics/v1/shipment_service_pb';
import type { AuditEntry } from '@/gen/logistics/v1/audit_service_pb';
import { auditClient, shipmentClient } from '@/lib/transport';
import type { ShipmentInit, ShipmentUpdate } from '../utils/shipment-form';

const TIMEOUT_MS = 15_000;

export const PAGE_SIZE = 20;

export function listShipments(
  params: ListFilter & { pageToken: string },
  signal?: AbortSignal,
): Promise<ListShipmentsResponse> {
  return shipmentClient.listShipments(
    { pageSize: PAGE_SIZE, pageToken: params.pageToken, ...listRequest(params) },
    { signal, timeoutMs: TIMEOUT_MS },
  );
}

export function getShipment(id: string, signal?: AbortSignal): Promise<Shipment> {
  return shipmentClient.getShipment({ id }, { signal, timeoutMs: TIMEOUT_MS });
}

export function createShipment(shipment: ShipmentInit): Promise<Shipment> {
  return shipmentClient.createShipment({ shipment }, { timeoutMs: TIMEOUT_MS });
}

export function updateShipment(update: ShipmentUpdate): Promise<Shipment> {
  return shipmentClient.updateShipment(
    {
      shipment: update.shipment,
      updateMask: { paths: update.paths },
      remarks: update.remarks,
      remarksPublic: update.remarksPublic,
    },
    { timeoutMs: TIMEOUT_MS },
  );
}

export async function deleteShipment(id: string): Promise<void> {
  await shipmentClient.deleteShipment({ id }, { timeoutMs: TIMEOUT_MS });
}

export function updateTracking(input: {
  id: string;
  status: ShipmentStatus;
  currentLocation: string;
  remarks: string;
  remarksPublic: boolean;
}): Promise<Shipment> {
  return shipmentClient.updateShipmentTracking(input, { timeoutMs: TIMEOUT_MS });
}

/** What RecordProofOfDelivery takes: the recipient's name, and the signature (PNG) and photo
 * (JPEG or PNG) bytes when given. */
export type ProofOfDeliveryInput = { recipientName: string; signaturePng?: Uint8Array; photo?: Uint8Array };

/** Records (or replaces) who received a delivered shipment. A photo of 8 MB takes a while on a
 * phone's connection, hence the longer timeout. */
export function recordProofOfDelivery(id: string, input: ProofOfDeliveryInput): Promise<Shipment> {
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

/** The audit entries about one shipment, newest first (the latest 100). */
export async function listShipmentActivity(id: string, signal?: AbortSignal): Promise<AuditEntry[]> {
  const page = await auditClient.listAuditEntries({ target: id, pageSize: 100 }, { signal, timeoutMs: TIMEOUT_MS });
  return page.entries;
}

export function getStatistics(signal?: AbortSignal): Promise<ShipmentStatistics> {
  return shipmentClient.getShipmentStatistics({}, { signal, timeoutMs: TIMEOUT_MS });
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
  };
}

/** Sets one status and location, with one remark, on the given shipments or all the filter matches. */
export function batchUpdateTracking(input: {
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
