import { describe, expect, it } from 'vitest';
import { bookableQuote, readQuoteToken } from './quote-token';

const base64Url = (value: unknown) =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

const PAYLOAD = {
  qid: 'Q-7F3A9C2B1D',
  exp: 1790000000,
  cur: 'USD',
  card: 'public',
  ver: 3,
  cus: '',
  req: {
    origin: { country: 'NG', city: 'Lagos' },
    destination: { country: 'NL', city: 'Rotterdam' },
    parcels: [{ weight_kg: 5.0, length_cm: 40.0, width_cm: 30.0, height_cm: 20.0, count: 1 }],
  },
  opts: [
    { code: 'EXPRESS_AIR', name: 'Express Air', price: 12345, kg: 5.0 },
    { code: 'ECONOMY_SEA', name: 'Economy Sea', mode: 3, price: 4500, kg: 5.0 },
  ],
  iat: 1789395200,
};

const token = (payload: unknown) => `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(payload)}.c2lnbmF0dXJl`;

describe('readQuoteToken', () => {
  it("reads the quote's id, expiry, currency, request and options", () => {
    expect(readQuoteToken(token(PAYLOAD))).toEqual({
      id: 'Q-7F3A9C2B1D',
      expires: new Date(1790000000 * 1000),
      currency: 'USD',
      origin: { country: 'NG', city: 'Lagos' },
      destination: { country: 'NL', city: 'Rotterdam' },
      parcels: [{ weightKg: 5, lengthCm: 40, widthCm: 30, heightCm: 20, count: 1 }],
      options: [
        { code: 'EXPRESS_AIR', name: 'Express Air', price: 12345n, kg: 5, mode: 0 },
        { code: 'ECONOMY_SEA', name: 'Economy Sea', price: 4500n, kg: 5, mode: 3 },
      ],
    });
  });

  it('reads accented cities (UTF-8) and parcels without sides', () => {
    const payload = {
      ...PAYLOAD,
      req: { ...PAYLOAD.req, destination: { country: 'CI', city: 'Yamoussoukro–Île' }, parcels: [{ weight_kg: 2.5, count: 3 }] },
    };
    const quote = readQuoteToken(token(payload))!;
    expect(quote.destination.city).toBe('Yamoussoukro–Île');
    expect(quote.parcels).toEqual([{ weightKg: 2.5, lengthCm: 0, widthCm: 0, heightCm: 0, count: 3 }]);
  });

  it('refuses what is not a quote token', () => {
    for (const bad of [
      '',
      'abc',
      'a.b',
      `x.${base64Url(PAYLOAD)}`,
      `x.%%%.y`,
      `x.${base64Url('text')}.y`,
      token({ ...PAYLOAD, qid: undefined }),
      token({ ...PAYLOAD, exp: 'soon' }),
      token({ ...PAYLOAD, cur: 'dollars' }),
      token({ ...PAYLOAD, req: { ...PAYLOAD.req, parcels: [] } }),
      token({ ...PAYLOAD, req: { ...PAYLOAD.req, origin: { city: 'Lagos' } } }),
      token({ ...PAYLOAD, opts: [{ code: 'X', name: 'X', price: 1.5, kg: 1 }] }),
      token({ ...PAYLOAD, opts: 'none' }),
    ]) {
      expect(readQuoteToken(bad), bad).toBeNull();
    }
  });
});

describe('bookableQuote', () => {
  const before = new Date(1789999999 * 1000);
  it('gives the chosen option of a quote that has not expired', () => {
    expect(bookableQuote(token(PAYLOAD), 'ECONOMY_SEA', before)?.option).toEqual({ code: 'ECONOMY_SEA', name: 'Economy Sea', price: 4500n, kg: 5, mode: 3 });
  });
  it('refuses an expired quote, an unknown service and a malformed token', () => {
    expect(bookableQuote(token(PAYLOAD), 'EXPRESS_AIR', new Date(1790000000 * 1000))).toBeNull();
    expect(bookableQuote(token(PAYLOAD), 'ROAD', before)).toBeNull();
    expect(bookableQuote('nonsense', 'EXPRESS_AIR', before)).toBeNull();
  });
});
