import { describe, expect, it } from 'vitest';
import { ChargeableWeightBasis, QuoteChargeKind } from '@/gen/logistics/v1/rate_card_service_pb';
import { chargeLabel, chargeableWeightText, isCardViolation, previewFieldOfViolation, previewRequest, transitDaysText } from './preview';

describe('the preview', () => {
  it('asks for one parcel between two places', () => {
    expect(
      previewRequest({ fromCountry: 'ng', fromCity: ' Lagos ', toCountry: 'NL', toCity: 'Rotterdam', weightKg: '5', lengthCm: '40', widthCm: '30', heightCm: '20' }),
    ).toEqual({
      origin: { country: 'NG', city: 'Lagos' },
      destination: { country: 'NL', city: 'Rotterdam' },
      parcels: [{ weightKg: 5, lengthCm: 40, widthCm: 30, heightCm: 20, count: 1 }],
    });
  });

  it('puts the server’s violations at their inputs', () => {
    expect(previewFieldOfViolation('quote.parcels[0].weight_kg')).toBe('weightKg');
    expect(previewFieldOfViolation('quote.origin.country')).toBe('fromCountry');
    expect(previewFieldOfViolation('destination.city')).toBe('toCity');
    expect(previewFieldOfViolation('rate_card.lanes[0]')).toBeNull();
    expect(isCardViolation('rate_card.lanes[0].origin_zone')).toBe(true);
    expect(isCardViolation('quote.parcels')).toBe(false);
  });

  it('says why the weight is charged', () => {
    expect(chargeableWeightText({ chargeableWeightKg: 5, actualWeightKg: 5, chargeableWeightBasis: ChargeableWeightBasis.ACTUAL })).toBe(
      'Chargeable weight 5 kg (actual weight)',
    );
    expect(chargeableWeightText({ chargeableWeightKg: 12, actualWeightKg: 8, chargeableWeightBasis: ChargeableWeightBasis.VOLUMETRIC })).toBe(
      'Chargeable weight 12 kg (volumetric weight, larger than the actual 8 kg)',
    );
  });

  it('names the days and the charges', () => {
    expect(transitDaysText(3, 5)).toBe('3–5 days');
    expect(transitDaysText(2, 2)).toBe('2 days');
    expect(transitDaysText(1, 1)).toBe('1 day');
    expect(chargeLabel(QuoteChargeKind.DISCOUNT)).toBe('Discount');
    expect(chargeLabel(QuoteChargeKind.FUEL)).toBe('Fuel surcharge');
  });
});
