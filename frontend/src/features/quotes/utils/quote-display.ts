// How an answer's figures read: the words of each charge, the chargeable weight's reason and
// the transit days. Pure.
import { ChargeableWeightBasis, QuoteChargeKind } from '@/gen/logistics/v1/rate_card_service_pb';

/** The message id of a charge's name. */
export function chargeLabelId(kind: QuoteChargeKind): string {
  switch (kind) {
    case QuoteChargeKind.FREIGHT:
      return 'quote.charge.freight';
    case QuoteChargeKind.FUEL:
      return 'quote.charge.fuel';
    case QuoteChargeKind.REMOTE_AREA:
      return 'quote.charge.remote_area';
    case QuoteChargeKind.OVERSIZE:
      return 'quote.charge.oversize';
    case QuoteChargeKind.DISCOUNT:
      return 'quote.charge.discount';
    default:
      return 'quote.charge.other';
  }
}

/** The sentence of the chargeable weight: volumetric when the lane charged by volume and that
 * weighed more than the parcels, else actual. */
export function chargeableWeightMessageId(option: { chargeableWeightBasis: ChargeableWeightBasis }): string {
  return option.chargeableWeightBasis === ChargeableWeightBasis.VOLUMETRIC ? 'quote.option.chargeable_volumetric' : 'quote.option.chargeable_actual';
}

/** The transit time: one number of days, or a range. */
export function transitDays(min: number, max: number): { days: number } | { min: number; max: number } {
  const low = Math.max(0, Math.min(min, max));
  const high = Math.max(min, max, 0);
  return low === high ? { days: low } : { min: low, max: high };
}
