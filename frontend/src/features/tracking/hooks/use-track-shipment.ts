import { useCallback, useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { trackShipment, type TrackOutcome } from '../api/track-shipment';

export type TrackState =
  | { status: 'idle' }
  | { status: 'loading'; trackingNumber: string }
  /** `savedAt`: offline, this is the result kept from the last successful lookup; `notice`: the
   * e-mail link's token was refused (this is the view anyone gets). */
  | { status: 'success'; trackingNumber: string; shipment: Shipment; savedAt?: string; notice?: string }
  | { status: 'error'; trackingNumber: string; message: string };

/**
 * Looks the number up as soon as it is set (and again on `retry`), with the `access` token of an
 * e-mail link when there is one. A failure shows its message in a toast as well as in the
 * returned state; offline, the last result kept for this number is shown instead.
 * `showShipment` puts another answer for the same number in place (the FULL view after a party
 * proved who they are).
 */
export function useTrackShipment(
  trackingNumber: string | undefined,
  accessToken = '',
): { state: TrackState; retry: () => void; showShipment: (shipment: Shipment) => void } {
  const [attempt, setAttempt] = useState(0);
  const queryClient = useQueryClient();
  // Each lookup (and retry) is its own query, dropped once left: until it answers, the number is
  // loading, never showing the previous outcome.
  const queryKey = ['track', trackingNumber, accessToken, attempt];
  const { data: outcome } = useQuery<TrackOutcome>({
    queryKey,
    queryFn: ({ signal }) => trackShipment(trackingNumber!, accessToken, signal),
    enabled: Boolean(trackingNumber),
    gcTime: 0,
    staleTime: Infinity,
  });

  const failure = outcome && 'failure' in outcome ? outcome.failure : null;
  useEffect(() => {
    if (failure) toast.error(failure, { toastId: `track-error-${trackingNumber}-${attempt}` });
  }, [failure, trackingNumber, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const showShipment = useCallback(
    (shipment: Shipment) =>
      queryClient.setQueryData<TrackOutcome>(queryKey, (last) => (last && 'shipment' in last ? { shipment } : last)),
    // The key's parts, not the array made anew each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, trackingNumber, accessToken, attempt],
  );

  let state: TrackState;
  if (!trackingNumber) state = { status: 'idle' };
  else if (!outcome) state = { status: 'loading', trackingNumber };
  else if ('failure' in outcome) state = { status: 'error', trackingNumber, message: outcome.failure };
  else state = { status: 'success', trackingNumber, ...outcome };
  return { state, retry, showShipment };
}
