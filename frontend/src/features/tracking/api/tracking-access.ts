// The calls a visitor makes from a tracking result: proving they are a party (the FULL view)
// and following the shipment's updates by e-mail. Loaded with the result, after the lookup has
// loaded the Connect client.
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { shipmentClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

/** The FULL view once `answer` (a party's e-mail address or the last 4 digits of a phone)
 * matches; the gateway remembers the grant for this browser in an HttpOnly cookie. */
export function verifyTrackingAccess(trackingNumber: string, answer: string): Promise<Shipment> {
  return shipmentClient.verifyTrackingAccess({ trackingNumber, answer }, { timeoutMs: TIMEOUT_MS });
}

/** Asks for the full-view link by e-mail, to the parties' addresses on file. The answer is the
 * same whether or not anything was sent. */
export async function sendTrackingAccessLink(trackingNumber: string): Promise<void> {
  await shipmentClient.sendTrackingAccessLink({ trackingNumber }, { timeoutMs: TIMEOUT_MS });
}

/** Sends a confirmation link to `email` (double opt-in); the confirmation and the updates are
 * written in `languageCode`, the language of the page they subscribed from. */
export async function subscribeToShipment(trackingNumber: string, email: string, languageCode: string): Promise<void> {
  await shipmentClient.subscribeToShipment({ trackingNumber, email, languageCode }, { timeoutMs: TIMEOUT_MS });
}
