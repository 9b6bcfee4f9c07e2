import { describe, expect, it } from 'vitest';
import { ChargeableWeightBasis, QuoteChargeKind } from '@/gen/logistics/v1/rate_card_service_pb';
import { chargeLabelId, chargeableWeightMessageId, transitDays } from './quote-display';

describe('quote display', () => {
  it('names every charge', () => {
    expect(chargeLabelId(QuoteChargeKind.FREIGHT)).toBe('quote.charge.freight');
    expect(chargeLabelId(QuoteChargeKind.FUEL)).toBe('quote.charge.fuel');
    expect(chargeLabelId(QuoteChargeKind.REMOTE_AREA)).toBe('quote.charge.remote_area');
    expect(chargeLabelId(QuoteChargeKind.OVERSIZE)).toBe('quote.charge.oversize');
    expect(chargeLabelId(QuoteChargeKind.DISCOUNT)).toBe('quote.charge.discount');
    expect(chargeLabelId(QuoteChargeKind.UNSPECIFIED)).toBe('quote.charge.other');
  });

  it('says why the chargeable weight is what it is', () => {
    expect(chargeableWeightMessageId({ chargeableWeightBasis: ChargeableWeightBasis.VOLUMETRIC })).toBe('quote.option.chargeable_volumetric');
    expect(chargeableWeightMessageId({ chargeableWeightBasis: ChargeableWeightBasis.ACTUAL })).toBe('quote.option.chargeable_actual');
    expect(chargeableWeightMessageId({ chargeableWeightBasis: ChargeableWeightBasis.UNSPECIFIED })).toBe('quote.option.chargeable_actual');
  });

  it('gives the transit days as one number or a range', () => {
    expect(transitDays(3, 5)).toEqual({ min: 3, max: 5 });
    expect(transitDays(2, 2)).toEqual({ days: 2 });
    expect(transitDays(5, 3)).toEqual({ min: 3, max: 5 });
  });
});
