import { useCallback, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { trackShipment } from '../api/track-shipment';
import { useLiveShipment } from './use-live-shipment';

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
 * proved who they are). While a result is shown it follows the shipment: each change replaces it
 * in place, and a shipment deleted meanwhile reads as an unknown number.
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

  // The view shown: counted up when a party proves who they are, so that the watch opened for the
  // view before (and any message of it still on its way) is not taken for the new one.
  const viewShown = useRef(0);
  const [view, setView] = useState(0);
  // The watch found the shipment deleted: for this number and token, until looked up again.
  const [gone, setGone] = useState<{ key: string; message: string } | null>(null);
  const lookupKey = `${trackingNumber}\n${accessToken}`;
  const goneMessage = gone?.key === lookupKey ? gone.message : null;

  const retry = useCallback(() => {
    setGone(null);
    void queryClient.resetQueries({ queryKey: ['track', trackingNumber, accessToken], exact: true });
  }, [queryClient, trackingNumber, accessToken]);
  const showShipment = useCallback(
    (shipment: Shipment) => {
      viewShown.current += 1;
      setView(viewShown.current);
      queryClient.setQueryData<Found>(['track', trackingNumber, accessToken], (last) => (last ? { shipment } : last));
    },
    [queryClient, trackingNumber, accessToken],
  );

  useLiveShipment({
    enabled: query.isSuccess && goneMessage === null,
    trackingNumber,
    // As the lookup that produced the result: without the e-mail link's token once it was refused.
    accessToken: query.data?.notice ? '' : accessToken,
    view,
    onShipment: (shipment, forView) => {
      if (forView !== viewShown.current) return;
      // Live, so no longer the copy kept offline; a refused link's notice stays.
      queryClient.setQueryData<Found>(['track', trackingNumber, accessToken], (last) =>
        last ? (last.notice ? { shipment, notice: last.notice } : { shipment }) : last,
      );
    },
    onGone: (message) => setGone({ key: lookupKey, message }),
  });

  let state: TrackState;
  if (query.isPending) state = { status: 'loading', trackingNumber };
  else if (query.isError) state = { status: 'error', trackingNumber, message: query.error.message };
  else if (goneMessage !== null) state = { status: 'error', trackingNumber, message: goneMessage };
  else state = { status: 'success', trackingNumber, ...query.data };
  return { state, retry, showShipment };
}
