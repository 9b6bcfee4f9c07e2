// The staff's change feed (WatchShipmentChanges, shipments.read): which shipments changed, as
// they change, for the open screens to read them again.
import type { WatchShipmentChangesResponse } from '@/gen/logistics/v1/shipment_service_pb';
import { shipmentClient } from '@/lib/transport';
import { watchStream } from '@/lib/watch-stream';

/** Follows the feed until `signal` aborts, opening it again whenever it drops; `first` marks the
 * first (empty) message of each (re)connection: what was read before it may be stale. A refusal
 * (signed out, the permission taken away) ends it: the session's own handling takes over. */
export function watchShipmentChanges(
  onChange: (message: WatchShipmentChangesResponse, first: boolean) => void,
  signal: AbortSignal,
): void {
  watchStream({
    open: (attempt) => shipmentClient.watchShipmentChanges({}, { signal: attempt, timeoutMs: 0 }),
    onMessage: onChange,
    onStop: (error) => console.warn('Stopped following shipment changes', error),
    signal,
  });
}
