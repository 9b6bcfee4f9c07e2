// Pure mapping from the Shipment message to what the track result shows.
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { totalWeightKg } from '@/utils/shipment';

export {
  historyNewestFirst,
  labelIdOf,
  MODE_OPTIONS,
  PAYMENT_OPTIONS,
  shipmentModeIcon,
  statusKey,
  TYPE_OPTIONS,
} from '@/utils/shipment';

/** The total weight shown: the packages' sum in kg; a view without packages (LIMITED)
 * shows the shipment's recorded total actual weight, else its weight. */
export function displayWeightKg(
  shipment: Pick<Shipment, 'packages' | 'totalActualWeightKg' | 'weightKg'>,
): number {
  if (shipment.packages.length > 0) return totalWeightKg(shipment.packages);
  return shipment.totalActualWeightKg || shipment.weightKg;
}
