import { useCallback, useEffect, useState } from 'react';
import { toast } from '@/lib/toast';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { trackShipment } from '../api/track-shipment';

export type TrackState =
  | { status: 'idle' }
  | { status: 'loading'; trackingNumber: string }
  /** `savedAt`: offline, this is the result kept from the last successful lookup. */
  | { status: 'success'; trackingNumber: string; shipment: Shipment; savedAt?: string }
  | { status: 'error'; trackingNumber: string; message: string };

/**
 * Looks the number up as soon as it is set (and again on `retry`). A failure shows its
 * message in a toast as well as in the returned state; offline, the last result kept for this
 * number is shown instead.
 */
export function useTrackShipment(trackingNumber: string | undefined): { state: TrackState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<TrackState>(() =>
    trackingNumber ? { status: 'loading', trackingNumber } : { status: 'idle' },
  );

  useEffect(() => {
    if (!trackingNumber) {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'loading', trackingNumber });
    void trackShipment(trackingNumber, controller.signal).then((outcome) => {
      if (controller.signal.aborted) return;
      if ('failure' in outcome) {
        setState({ status: 'error', trackingNumber, message: outcome.failure });
        toast.error(outcome.failure, { toastId: `track-error-${trackingNumber}-${attempt}` });
      } else {
        setState({ status: 'success', trackingNumber, ...outcome });
      }
    });
    return () => controller.abort();
  }, [trackingNumber, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // Between a change of number and the effect above, never show the previous number's outcome.
  let current: TrackState = state;
  if (!trackingNumber) {
    if (state.status !== 'idle') current = { status: 'idle' };
  } else if (state.status === 'idle' || state.trackingNumber !== trackingNumber) {
    current = { status: 'loading', trackingNumber };
  }
  return { state: current, retry };
}
