import { describe, expect, it } from 'vitest';
import {
  blankParcel,
  cityProblem,
  countProblem,
  countryProblem,
  invalidMessageId,
  parseDecimal,
  quoteFieldOf,
  sideProblem,
  toQuoteRequest,
  weightProblem,
} from './quote-form';

describe('the quote form', () => {
  it('reads decimals with a point or a comma', () => {
    expect(parseDecimal('5')).toBe(5);
    expect(parseDecimal(' 2,5 ')).toBe(2.5);
    expect(parseDecimal('.5')).toBe(0.5);
    expect(parseDecimal('')).toBeNaN();
    expect(parseDecimal('1e3')).toBeNaN();
    expect(parseDecimal('-1')).toBeNaN();
  });

  it('checks each value as the server does', () => {
    expect(weightProblem('')).toBe('quote.error.weight_required');
    expect(weightProblem('0')).toBe('quote.error.weight_invalid');
    expect(weightProblem('10000')).toBeNull();
    expect(weightProblem('10000.5')).toBe('quote.error.weight_invalid');
    expect(countProblem('1')).toBeNull();
    expect(countProblem('999')).toBeNull();
    expect(countProblem('0')).toBe('quote.error.count_invalid');
    expect(countProblem('1.5')).toBe('quote.error.count_invalid');
    expect(countryProblem('')).toBe('quote.error.country_required');
    expect(countryProblem('NG')).toBeNull();
    expect(cityProblem('x'.repeat(80))).toBeNull();
    expect(cityProblem('x'.repeat(81))).toBe('quote.error.city_invalid');
  });

  it('takes all three sides or none', () => {
    const none = blankParcel();
    expect(sideProblem('', none)).toBeNull();
    const some = { ...none, length: '40' };
    expect(sideProblem('', some)).toBe('quote.error.sides_all_or_none');
    expect(sideProblem('40', some)).toBeNull();
    expect(sideProblem('1001', some)).toBe('quote.error.side_invalid');
  });

  it('sends the request the server takes', () => {
    expect(
      toQuoteRequest({
        originCountry: 'NG',
        originCity: ' Lagos ',
        destinationCountry: 'NL',
        destinationCity: 'Rotterdam',
        parcels: [
          { weight: '5', length: '40', width: '30', height: '20', count: '1' },
          { weight: '2,5', length: '', width: '', height: '', count: ' 3 ' },
        ],
      }),
    ).toEqual({
      origin: { country: 'NG', city: 'Lagos' },
      destination: { country: 'NL', city: 'Rotterdam' },
      parcels: [
        { weightKg: 5, lengthCm: 40, widthCm: 30, heightCm: 20, count: 1 },
        { weightKg: 2.5, lengthCm: 0, widthCm: 0, heightCm: 0, count: 3 },
      ],
    });
  });

  it("puts each server violation next to its input", () => {
    expect(quoteFieldOf('origin.country')).toBe('originCountry');
    expect(quoteFieldOf('destination.city')).toBe('destinationCity');
    expect(quoteFieldOf('destination')).toBe('destinationCountry');
    expect(quoteFieldOf('parcels[0].weight_kg')).toBe('parcels.0.weight');
    expect(quoteFieldOf('parcels[12].height_cm')).toBe('parcels.12.height');
    expect(quoteFieldOf('parcels[1].lengthCm')).toBe('parcels.1.length');
    expect(quoteFieldOf('parcels[2].count')).toBe('parcels.2.count');
    expect(quoteFieldOf('parcels')).toBe('parcels');
    expect(quoteFieldOf('parcels[0]')).toBe('parcels.0.weight');
    expect(quoteFieldOf('card')).toBeNull();
  });

  it('has a sentence of its own for each field, for the other languages', () => {
    expect(invalidMessageId('originCountry')).toBe('quote.error.country_required');
    expect(invalidMessageId('destinationCity')).toBe('quote.error.city_invalid');
    expect(invalidMessageId('parcels.0.weight')).toBe('quote.error.weight_invalid');
    expect(invalidMessageId('parcels.3.width')).toBe('quote.error.side_invalid');
    expect(invalidMessageId('parcels.3.count')).toBe('quote.error.count_invalid');
    expect(invalidMessageId('parcels')).toBe('quote.error.parcels_invalid');
  });
});
