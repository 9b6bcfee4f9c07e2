import { useEffect, useEffectEvent } from 'react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';

type LiveShipment = {
  /** A result is shown (not while it loads, nor after it failed). */
  enabled: boolean;
  trackingNumber: string;
  accessToken: string;
  /** Changes when the view changes (a party proved who they are): the watch opens again, so the
   * gateway sends the new access cookie and the server answers the new view. */
  view: number;
  /** The shipment as it is now, for the `view` the watch was opened for. */
  onShipment: (shipment: Shipment, view: number) => void;
  onGone: (message: string) => void;
};

/**
 * While a result is shown, follows the shipment (WatchShipment) and hands each new state to
 * `onShipment`. The watch's code (and the reconnecting stream) loads only once a result has
 * rendered; offline, it loads when the browser is back online.
 */
export function useLiveShipment({ enabled, trackingNumber, accessToken, view, onShipment, onGone }: LiveShipment): void {
  const shipmentArrived = useEffectEvent(onShipment);
  const gone = useEffectEvent(onGone);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const { signal } = controller;
    const start = () =>
      import('../api/watch-shipment').then(
        ({ watchShipment }) => {
          if (signal.aborted) return;
          watchShipment({
            trackingNumber,
            accessToken,
            signal,
            onShipment: (shipment) => shipmentArrived(shipment, view),
            onGone: (message) => gone(message),
          });
        },
        // The code could not load (offline before it was ever fetched): try again once online.
        () => window.addEventListener('online', () => void start(), { once: true, signal }),
      );
    void start();
    return () => controller.abort();
  }, [enabled, trackingNumber, accessToken, view]);
}
