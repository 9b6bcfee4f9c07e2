// An open result follows the shipment (WatchShipment): loaded after the first result shows
// (hooks/use-live-shipment.ts), so neither the intro page nor the first answer waits for it.
import { Code } from '@connectrpc/connect';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { shipmentClient } from '@/lib/transport';
import { watchStream } from '@/lib/watch-stream';
import { trackingErrorMessage } from '../utils/errors';
import { saveLastResult } from '../utils/last-result';

export type ShipmentWatch = {
  trackingNumber: string;
  /** As the lookup that produced the shown result: the e-mail link's token, or "". */
  accessToken: string;
  /** The shipment as it is now (the view the server grants this reader). */
  onShipment: (shipment: Shipment) => void;
  /** It is gone (deleted): what the lookup says of an unknown number. */
  onGone: (message: string) => void;
  signal: AbortSignal;
};

/** Watches the shipment until `signal` aborts, opening the stream again whenever it drops. The
 * gateway adds the access cookie of a verified party: the server decides the view. */
export function watchShipment({ trackingNumber, accessToken, onShipment, onGone, signal }: ShipmentWatch): void {
  watchStream({
    open: (attempt) => shipmentClient.watchShipment({ trackingNumber, accessToken }, { signal: attempt, timeoutMs: 0 }),
    onMessage: ({ shipment }) => {
      // A message without a shipment only keeps the connection open.
      if (!shipment || signal.aborted) return;
      saveLastResult(shipment);
      onShipment(shipment);
    },
    onStop: (error) => {
      if (error.code === Code.NotFound) onGone(trackingErrorMessage(error));
      else console.warn('Tracking page stopped following the shipment', error);
    },
    signal,
  });
}
