import { useCallback, useEffect, useState } from 'react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { trackShipment } from '../api/track-shipment';

export type TrackState =
  | { status: 'idle' }
  | { status: 'loading'; trackingNumber: string }
  /** `savedAt`: offline, this is the result kept from the last successful lookup; `notice`: the
   * e-mail link's token was refused (this is the view anyone gets). */
  | { status: 'success'; trackingNumber: string; shipment: Shipment; savedAt?: string; notice?: string }
  | { status: 'error'; trackingNumber: string; message: string };

type Outcome = { trackingNumber: string; accessToken: string; attempt: number; state: TrackState };

/**
 * Looks the number up as soon as it is set (and again on `retry`), with the `access` token of an
 * e-mail link when there is one. A failure's message is in the returned state (the page says it
 * once, inline); offline, the last result kept for this number is shown instead.
 * `showShipment` puts another answer for the same number in place (the FULL view after a party
 * proved who they are).
 */
export function useTrackShipment(
  trackingNumber: string | undefined,
  accessToken = '',
): { state: TrackState; retry: () => void; showShipment: (shipment: Shipment) => void } {
  const [attempt, setAttempt] = useState(0);
  // The outcome of the last lookup, with the number, token and attempt it answers.
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!trackingNumber) return;
    const controller = new AbortController();
    void trackShipment(trackingNumber, accessToken, controller.signal).then((result) => {
      if (controller.signal.aborted) return;
      const answers = { trackingNumber, accessToken, attempt };
      if ('failure' in result) {
        setOutcome({ ...answers, state: { status: 'error', trackingNumber, message: result.failure } });
      } else {
        setOutcome({ ...answers, state: { status: 'success', trackingNumber, ...result } });
      }
    });
    return () => controller.abort();
  }, [trackingNumber, accessToken, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const showShipment = useCallback(
    (shipment: Shipment) =>
      setOutcome((last) =>
        last?.state.status === 'success' ? { ...last, state: { ...last.state, shipment, savedAt: undefined, notice: undefined } } : last,
      ),
    [],
  );

  // Until this number's lookup (or retry) answers, it is loading: never the previous outcome.
  let state: TrackState;
  if (!trackingNumber) state = { status: 'idle' };
  else if (
    outcome?.trackingNumber === trackingNumber &&
    outcome.accessToken === accessToken &&
    outcome.attempt === attempt
  ) {
    state = outcome.state;
  } else state = { status: 'loading', trackingNumber };
  return { state, retry, showShipment };
}
