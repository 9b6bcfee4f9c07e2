// The courier app's calls: the day's round, and sending a kept action (an event, then for a
// delivery its proof). Through the one transport (src/lib/transport.ts).
import { Code, ConnectError } from '@connectrpc/connect';
import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DeliveryAttemptFailure, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { shipmentClient } from '@/lib/transport';
import type { AttemptReason, CourierEvent, QueuedAction } from '../utils/outbox';

const TIMEOUT_MS = 15_000;

/** Today's round (the server's day): the shipments and pickups given to the signed-in courier. */
export function useCourierStops() {
  return useQuery(ShipmentService.method.listCourierStops, {}, { refetchInterval: 60_000 });
}

/** The history entry each event writes: its status and its words (public: they say nothing
 * private, and visitors see the shipment's progress). */
const EVENTS: Record<CourierEvent, { status: ShipmentStatus; remarks: string }> = {
  picked_up: { status: ShipmentStatus.IN_TRANSIT, remarks: 'Picked up by the courier' },
  at_hub: { status: ShipmentStatus.IN_TRANSIT, remarks: 'At the hub' },
  out_for_delivery: { status: ShipmentStatus.IN_TRANSIT, remarks: 'Out for delivery' },
  delivered: { status: ShipmentStatus.DELIVERED, remarks: '' },
  attempted: { status: ShipmentStatus.IN_TRANSIT, remarks: '' },
};

const REASONS: Record<AttemptReason, DeliveryAttemptFailure> = {
  nobody_home: DeliveryAttemptFailure.NOBODY_HOME,
  refused: DeliveryAttemptFailure.REFUSED,
  address_problem: DeliveryAttemptFailure.ADDRESS_PROBLEM,
};

/** How sending an action ended: the server has it, it refused it (why), or it could not be
 * reached (try again later), or the session is gone (sign in again first). */
export type SendResult = { kind: 'sent' } | { kind: 'refused'; message: string } | { kind: 'retry' } | { kind: 'signed-out' };

function outcome(error: unknown): SendResult {
  const err = ConnectError.from(error);
  if (err.code === Code.Unauthenticated) return { kind: 'signed-out' };
  if (
    [Code.Unavailable, Code.DeadlineExceeded, Code.Unknown, Code.Canceled, Code.Internal, Code.ResourceExhausted, Code.Aborted].includes(
      err.code,
    )
  ) {
    return { kind: 'retry' };
  }
  const violations = fieldViolations(error);
  const message = violations.length > 0 ? violations.map((v) => `${v.field}: ${v.description}`).join('; ') : serverMessage(error, err.message);
  return { kind: 'refused', message };
}

async function bytesOf(blob: Blob | undefined): Promise<Uint8Array> {
  return blob ? new Uint8Array(await blob.arrayBuffer()) : new Uint8Array();
}

/** Sends one kept action. Safe to repeat: the event carries its id, and a proof replaces the last. */
export async function sendAction(action: QueuedAction): Promise<SendResult> {
  try {
    let id = action.shipmentId;
    if (!id) {
      const found = await shipmentClient.getShipmentByTrackingNumber(
        { trackingNumber: action.trackingNumber },
        { timeoutMs: TIMEOUT_MS },
      );
      id = found.id;
    }
    const event = EVENTS[action.event];
    await shipmentClient.updateShipmentTracking(
      {
        id,
        status: event.status,
        currentLocation: action.place,
        remarks: event.remarks,
        remarksPublic: event.remarks !== '',
        eventTime: timestampFromDate(new Date(action.recordedAt)),
        failedAttempt: action.reason ? REASONS[action.reason] : DeliveryAttemptFailure.UNSPECIFIED,
        requestId: action.requestId,
      },
      { timeoutMs: TIMEOUT_MS },
    );
    if (action.event === 'delivered' && action.proof) {
      await shipmentClient.recordProofOfDelivery(
        {
          id,
          recipientName: action.proof.recipientName,
          signaturePng: await bytesOf(action.proof.signature),
          photo: await bytesOf(action.proof.photo),
        },
        { timeoutMs: TIMEOUT_MS },
      );
    }
    return { kind: 'sent' };
  } catch (error) {
    return outcome(error);
  }
}
