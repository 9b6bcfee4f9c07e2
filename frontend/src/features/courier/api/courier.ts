// The courier app's calls: the day's round, and sending a kept action (an event, then for a
// delivery its proof). Through the one transport (src/lib/transport.ts).
import { Code, ConnectError } from '@connectrpc/connect';
import { useEffect } from 'react';
import { useQuery } from '@connectrpc/connect-query';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DeliveryAttemptFailure, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { shipmentClient } from '@/lib/transport';
import { keepRound, keptRound } from '../utils/kept-round';
import type { AttemptReason, CourierEvent, QueuedAction } from '../utils/outbox';

const TIMEOUT_MS = 15_000;

/** Today's round (the server's day): the shipments and pickups given to the signed-in courier;
 * without signal, the round as last read today on this phone. */
export function useCourierStops(email: string) {
  // The kept round is old news: it is shown at once and asked for again (when there is signal).
  const stops = useQuery(
    ShipmentService.method.listCourierStops,
    {},
    { refetchInterval: 60_000, initialData: () => keptRound(email), initialDataUpdatedAt: 0 },
  );
  useEffect(() => {
    if (stops.data && stops.dataUpdatedAt > 0) keepRound(email, stops.data);
  }, [email, stops.data, stops.dataUpdatedAt]);
  return stops;
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

/** The most actions one call sends (the server's bound on events per call). */
export const MAX_ACTIONS_PER_CALL = 100;

/** The shipment ids of actions recorded from a number scanned offline: looked up once per
 * number. A number no shipment has is refused; any other failure means try again later. */
async function shipmentIds(actions: QueuedAction[]): Promise<Map<string, SendResult | string>> {
  const ids = new Map<string, SendResult | string>();
  for (const action of actions) {
    if (action.shipmentId || ids.has(action.trackingNumber)) continue;
    try {
      const found = await shipmentClient.getShipmentByTrackingNumber({ trackingNumber: action.trackingNumber }, { timeoutMs: TIMEOUT_MS });
      ids.set(action.trackingNumber, found.id);
    } catch (error) {
      const result = outcome(error);
      ids.set(action.trackingNumber, result);
      if (result.kind !== 'refused') break;
    }
  }
  return ids;
}

/** Sends kept actions in one call, in their order; a delivery's proof, which only the last may
 * carry, follows its event. One result per action, in order. Safe to repeat: each event carries
 * its id, and a proof replaces the last. */
export async function sendActions(actions: QueuedAction[]): Promise<SendResult[]> {
  const results: SendResult[] = actions.map(() => ({ kind: 'retry' }));
  const ids = await shipmentIds(actions);
  const idOf = (action: QueuedAction) => action.shipmentId || (ids.get(action.trackingNumber) as string);
  const sending: number[] = [];
  for (const [i, action] of actions.entries()) {
    const id = action.shipmentId || ids.get(action.trackingNumber);
    if (typeof id === 'string') sending.push(i);
    else if (id?.kind === 'refused') results[i] = id;
    // Not reached, or signed out: this one and those after it wait.
    else return results.map((result, n) => (n >= i && id ? id : result));
  }
  if (sending.length === 0) return results;
  try {
    const response = await shipmentClient.recordTrackingEvents(
      {
        events: sending.map((i) => {
          const action = actions[i];
          const event = EVENTS[action.event];
          return {
            id: idOf(action),
            status: event.status,
            currentLocation: action.place,
            remarks: event.remarks,
            remarksPublic: event.remarks !== '',
            eventTime: timestampFromDate(new Date(action.recordedAt)),
            failedAttempt: action.reason ? REASONS[action.reason] : DeliveryAttemptFailure.UNSPECIFIED,
            requestId: action.requestId,
          };
        }),
      },
      { timeoutMs: TIMEOUT_MS },
    );
    // Events after the last result were not tried: they stay 'retry'.
    for (const [n, result] of response.results.entries()) {
      results[sending[n]] = result.recorded ? { kind: 'sent' } : { kind: 'refused', message: result.message };
    }
  } catch (error) {
    const failed = outcome(error);
    return results.map((result, i) => (sending.includes(i) ? failed : result));
  }
  const last = actions.length - 1;
  const proof = actions[last].proof;
  if (proof && actions[last].event === 'delivered' && results[last].kind === 'sent') {
    try {
      await shipmentClient.recordProofOfDelivery(
        {
          id: idOf(actions[last]),
          recipientName: proof.recipientName,
          signaturePng: await bytesOf(proof.signature),
          photo: await bytesOf(proof.photo),
        },
        { timeoutMs: TIMEOUT_MS },
      );
    } catch (error) {
      results[last] = outcome(error);
    }
  }
  return results;
}
