// The images of a delivered shipment's proof of delivery, for a visitor who sees its FULL view:
// a verified party (the gateway sends the tracking-access cookie along) or the holder of an
// e-mail link's `access` token. Loaded with the result, after the lookup loaded the client.
import type { ProofOfDeliveryImageKind } from '@/gen/logistics/v1/shipment_pb';
import type { ProofOfDeliveryImage } from '@/gen/logistics/v1/shipment_service_pb';
import { shipmentClient } from '@/lib/transport';

export function getProofOfDeliveryImage(
  trackingNumber: string,
  kind: ProofOfDeliveryImageKind,
  accessToken: string,
  signal: AbortSignal,
): Promise<ProofOfDeliveryImage> {
  return shipmentClient.getProofOfDeliveryImage({ trackingNumber, kind, accessToken }, { signal, timeoutMs: 60_000 });
}
