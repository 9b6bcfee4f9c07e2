import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { trackShipment } from '../api/track-shipment';

type TrackState =
  | { status: 'idle' }
  | { status: 'loading'; trackingNumber: string }
  /** `savedAt`: offline, this is the result kept from the last successful lookup; `notice`: the
   * e-mail link's token was refused (this is the view anyone gets). */
  | { status: 'success'; trackingNumber: string; shipment: Shipment; savedAt?: string; notice?: string }
  | { status: 'error'; trackingNumber: string; message: string };

export type TrackLookup = { state: TrackState; retry: () => void; showShipment: (shipment: Shipment) => void };

type Found = { shipment: Shipment; savedAt?: string; notice?: string };

/**
 * Looks the number up (TanStack Query, so this module loads with the first lookup, as the Connect
 * client does), with the `access` token of an e-mail link when there is one. A failure's message
 * is in the returned state (the page says it once, inline); offline, the last result kept for
 * this number is shown instead. `retry` asks again, showing the loading state meanwhile;
 * `showShipment` puts another answer for the same number in place (the FULL view after a party
 * proved who they are).
 */
export function useTrackShipment(trackingNumber: string, accessToken: string): TrackLookup {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['track', trackingNumber, accessToken],
    queryFn: async ({ signal }): Promise<Found> => {
      const outcome = await trackShipment(trackingNumber, accessToken, signal);
      if (!('failure' in outcome)) return outcome;
      throw new Error(outcome.failure);
    },
    // Another number, or coming back to this one, looks it up afresh: never a previous outcome.
    gcTime: 0,
  });

  const retry = useCallback(
    () => void queryClient.resetQueries({ queryKey: ['track', trackingNumber, accessToken], exact: true }),
    [queryClient, trackingNumber, accessToken],
  );
  const showShipment = useCallback(
    (shipment: Shipment) =>
      queryClient.setQueryData<Found>(['track', trackingNumber, accessToken], (last) => (last ? { shipment } : last)),
    [queryClient, trackingNumber, accessToken],
  );

  let state: TrackState;
  if (query.isPending) state = { status: 'loading', trackingNumber };
  else if (query.isError) state = { status: 'error', trackingNumber, message: query.error.message };
  else state = { status: 'success', trackingNumber, ...query.data };
  return { state, retry, showShipment };
}
