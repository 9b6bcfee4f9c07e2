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
  // The outcome of the last lookup, with the number and attempt it answers.
  const [outcome, setOutcome] = useState<{ trackingNumber: string; attempt: number; state: TrackState } | null>(null);

  useEffect(() => {
    if (!trackingNumber) return;
    const controller = new AbortController();
    void trackShipment(trackingNumber, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      if ('failure' in result) {
        setOutcome({ trackingNumber, attempt, state: { status: 'error', trackingNumber, message: result.failure } });
        toast.error(result.failure, { toastId: `track-error-${trackingNumber}-${attempt}` });
      } else {
        setOutcome({ trackingNumber, attempt, state: { status: 'success', trackingNumber, ...result } });
      }
    });
    return () => controller.abort();
  }, [trackingNumber, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  // Until this number's lookup (or retry) answers, it is loading: never the previous outcome.
  let state: TrackState;
  if (!trackingNumber) state = { status: 'idle' };
  else if (outcome?.trackingNumber === trackingNumber && outcome.attempt === attempt) state = outcome.state;
  else state = { status: 'loading', trackingNumber };
  return { state, retry };
}
