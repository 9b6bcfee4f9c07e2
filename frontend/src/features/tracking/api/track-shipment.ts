import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { i18n } from '@/lib/i18n';

/** A shipment (with `savedAt` when it is the copy kept offline, `notice` when the e-mail link's
 * token was refused), or the sentence to show. */
export type TrackOutcome = { shipment: Shipment; savedAt?: string; notice?: string } | { failure: string };

/**
 * Looks the number up; `accessToken` is the `access` parameter of a link in the shipment's own
 * e-mails, or "". The Connect client, the protobuf code and the offline copy load with the first
 * lookup (./track-shipment-call.ts), so /track's intro page does not wait for them.
 */
export async function trackShipment(
  trackingNumber: string,
  accessToken: string,
  signal: AbortSignal,
): Promise<TrackOutcome> {
  try {
    const { callTrackShipment } = await import('./track-shipment-call');
    return await callTrackShipment(trackingNumber, accessToken, signal);
  } catch (error) {
    // The lookup's code could not load (offline before any lookup) or the lookup was cancelled.
    console.warn('Tracking lookup failed', error);
    return { failure: i18n._('track.error.not_found') };
  }
}
