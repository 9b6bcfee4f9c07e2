// Pure mapping from the Shipment message to what the track result shows.
import { ConnectError, Code } from '@connectrpc/connect';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { totalWeightKg } from '@/utils/shipment';
import { NOT_FOUND_MESSAGE } from './messages';

export {
  historyNewestFirst,
  paymentModeLabel,
  shipmentModeIcon,
  shipmentModeLabel,
  shipmentTypeLabel,
  statusKey,
  statusLabel,
  statusTone,
  totalWeightKg,
} from '@/utils/shipment';

/** The total weight shown: the packages' sum (spec §3); a view without packages (LIMITED)
 * shows the shipment's recorded total actual weight, else its weight. */
export function displayWeightKg(
  shipment: Pick<Shipment, 'packages' | 'totalActualWeightKg' | 'weightKg'>,
): number {
  if (shipment.packages.length > 0) return totalWeightKg(shipment.packages);
  return shipment.totalActualWeightKg || shipment.weightKg;
}

/**
 * What the visitor reads when a lookup fails: the spec's not-found sentence for every failure,
 * except a rate limit, where the server's own sentence says when to try again.
 */
export function trackingErrorMessage(error: unknown): string {
  const err = ConnectError.from(error);
  if (err.code === Code.ResourceExhausted && err.rawMessage.trim()) {
    return err.rawMessage;
  }
  return NOT_FOUND_MESSAGE;
}
