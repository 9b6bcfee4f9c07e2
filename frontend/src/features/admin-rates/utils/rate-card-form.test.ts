import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { RateCardSchema } from '@/gen/logistics/v1/rate_card_service_pb';
import { ShipmentMode } from '@/gen/logistics/v1/shipment_pb';
import {
  blankLane,
  cardToForm,
  formPathOfViolation,
  formToCard,
  inputToDate,
  laneOfPath,
  laneSummary,
  newCustomerCardValues,
  placesOf,
} from './rate-card-form';

const CARD = create(RateCardSchema, {
  id: 'public',
  version: 3,
  currency: 'USD',
  validFrom: { year: 2026, month: 1, day: 5 },
  oversizeLengthCm: 150,
  oversizeWeightKg: 0,
  zones: [
    { code: 'WA', name: 'West Africa', places: ['NG', 'GH', 'NG/Lagos'], remote: false },
    { code: 'EU', name: 'Europe', places: ['NL'], remote: true },
  ],
  services: [{ code: 'EXPRESS_AIR', name: 'Express Air', mode: ShipmentMode.AIR_SHIPPING }],
  lanes: [
    {
      serviceCode: 'EXPRESS_AIR',
      originZone: 'WA',
      destinationZone: 'EU',
      minimumChargeMinor: 2500n,
      volumetricDivisor: 5000,
      fuelSurchargeBasisPoints: 1250,
      remoteAreaSurchargeMinor: 0n,
      oversizeSurchargeMinor: 4000n,
      transitDaysMin: 3,
      transitDaysMax: 5,
      weightBreaks: [
        { upToKg: 0.5, priceMinor: 1999n },
        { upToKg: 100, priceMinor: 450n, perKg: true },
      ],
    },
  ],
});

describe('cardToForm and formToCard', () => {
  it('round-trip a card exactly', () => {
    const values = cardToForm(CARD);
    expect(values.validFrom).toBe('2026-01-05');
    expect(values.validUntil).toBe('');
    expect(values.zones[0].places).toBe('NG, GH, NG/Lagos');
    expect(values.services[0].mode).toBe('air_shipping');
    expect(values.lanes[0]).toMatchObject({ minimumCharge: '25.00', fuelPercent: '12.5', remoteAreaSurcharge: '', transitDaysMin: '3' });
    expect(values.lanes[0].weightBreaks[1]).toEqual({ upToKg: '100', price: '4.50', perKg: true });
    const { card, problems } = formToCard(values, 'public', 3);
    expect(problems).toEqual([]);
    expect(create(RateCardSchema, card)).toEqual(create(RateCardSchema, { ...CARD, updateTime: undefined }));
  });

  it('names each input it cannot read', () => {
    const values = cardToForm(CARD);
    values.lanes[0].weightBreaks[0].price = 'abc';
    values.lanes[0].weightBreaks[1].upToKg = '';
    values.lanes[0].fuelPercent = '101';
    values.validUntil = '2026-02-30';
    const { problems } = formToCard(values, 'public', 3);
    expect(problems.map((p) => p.path)).toEqual([
      'validUntil',
      'lanes.0.fuelPercent',
      'lanes.0.weightBreaks.0.price',
      'lanes.0.weightBreaks.1.upToKg',
    ]);
    expect(problems[2].message).toBe('Enter an amount such as 12.50.');
  });

  it('sends a discount card without prices of its own', () => {
    const values = { ...newCustomerCardValues(), discountPercent: '12.5', zones: cardToForm(CARD).zones };
    const { card, problems } = formToCard(values, 'c123', 0);
    expect(problems).toEqual([]);
    expect(card).toMatchObject({ id: 'c123', version: 0, discountBasisPoints: 1250 });
    expect(card.zones).toBeUndefined();
    expect(formToCard({ ...values, discountPercent: '' }, 'c123', 0).problems).toEqual([
      { path: 'discountPercent', message: 'Enter a percentage from 0 to 100, such as 12.5.' },
    ]);
  });

  it('opens a customer card with a discount as a discount, and the public card never', () => {
    const discounted = create(RateCardSchema, { id: 'c1', discountBasisPoints: 1000 });
    expect(cardToForm(discounted)).toMatchObject({ pricing: 'discount', discountPercent: '10' });
    expect(cardToForm(create(RateCardSchema, { id: 'c1' })).pricing).toBe('own');
  });
});

describe('formPathOfViolation', () => {
  it('finds the input of each violation', () => {
    expect(formPathOfViolation('rate_card.lanes[2].weight_breaks[0].up_to_kg')).toBe('lanes.2.weightBreaks.0.upToKg');
    expect(formPathOfViolation('rate_card.lanes[2].weight_breaks[1].price_minor')).toBe('lanes.2.weightBreaks.1.price');
    expect(formPathOfViolation('lanes[0].fuel_surcharge_basis_points')).toBe('lanes.0.fuelPercent');
    expect(formPathOfViolation('rate_card.lanes[4].origin_zone')).toBe('lanes.4.originZone');
    expect(formPathOfViolation('rate_card.lanes[4].weight_breaks')).toBe('lanes.4.weightBreaks');
    expect(formPathOfViolation('rate_card.lanes[4]')).toBe('lanes.4');
    expect(formPathOfViolation('rate_card.zones[1].places')).toBe('zones.1.places');
    expect(formPathOfViolation('rate_card.zones[1].places[3]')).toBe('zones.1.places');
    expect(formPathOfViolation('rate_card.services[0].mode')).toBe('services.0.mode');
    expect(formPathOfViolation('rate_card.discount_basis_points')).toBe('discountPercent');
    expect(formPathOfViolation('rate_card.valid_until')).toBe('validUntil');
    expect(formPathOfViolation('rate_card.lanes')).toBe('lanes');
    expect(formPathOfViolation('rate_card.id')).toBeNull();
    expect(formPathOfViolation('quote.parcels[0].weight_kg')).toBeNull();
  });

  it('names the lane of a path', () => {
    expect(laneOfPath('lanes.12.weightBreaks.0.price')).toBe(12);
    expect(laneOfPath('lanes.3')).toBe(3);
    expect(laneOfPath('lanes')).toBeNull();
    expect(laneOfPath('zones.1.code')).toBeNull();
  });
});

describe('laneSummary', () => {
  it('says a lane in one line', () => {
    expect(laneSummary(cardToForm(CARD).lanes[0])).toBe('EXPRESS_AIR · WA → EU · 2 breaks · 3–5 days');
    const lane = { ...blankLane(), serviceCode: 'ROAD', originZone: 'WA', destinationZone: 'WA', transitDaysMin: '1', transitDaysMax: '1' };
    expect(laneSummary(lane)).toBe('ROAD · WA → WA · 1 break · 1 day');
    expect(laneSummary(blankLane())).toBe('— · — → — · 1 break · transit days not set');
    expect(laneSummary({ ...lane, transitDaysMin: '2', transitDaysMax: '2', weightBreaks: [] })).toBe('ROAD · WA → WA · 0 breaks · 2 days');
  });
});

describe('places and dates', () => {
  it('reads places separated by commas', () => {
    expect(placesOf(' NG, GH,,NG/Lagos , ')).toEqual(['NG', 'GH', 'NG/Lagos']);
  });

  it('reads a day', () => {
    expect(inputToDate('2026-12-01')).toEqual({ year: 2026, month: 12, day: 1 });
    expect(inputToDate('')).toBeUndefined();
    expect(inputToDate('2026-02-30')).toBeNull();
    expect(inputToDate('1/2/2026')).toBeNull();
  });
});
