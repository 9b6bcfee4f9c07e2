import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import { apiKeyCalls, apiKeyFieldOf, apiKeyStatus, expireTimeOf, expiryBounds, newApiKeyOf } from './api-keys';

const now = new Date('2026-11-27T12:00:00Z');
const at = (iso: string) => timestampFromDate(new Date(iso));

describe('apiKeyStatus', () => {
  it('is active without a revocation or a past expiry', () => {
    expect(apiKeyStatus({}, now)).toBe('active');
    expect(apiKeyStatus({ expireTime: at('2026-12-01T00:00:00Z') }, now)).toBe('active');
  });
  it('is expired once the expiry passed, revoked whatever the expiry', () => {
    expect(apiKeyStatus({ expireTime: at('2026-11-27T11:59:59Z') }, now)).toBe('expired');
    expect(apiKeyStatus({ revokeTime: at('2026-11-20T00:00:00Z'), expireTime: at('2026-11-21T00:00:00Z') }, now)).toBe('revoked');
  });
});

describe('apiKeyCalls', () => {
  it("counts today's calls and the last 14 days'", () => {
    const dailyUsage = [
      { date: '2026-11-27', calls: 3n },
      { date: '2026-11-20', calls: 5n },
      { date: '2026-11-14', calls: 7n },
      { date: '2026-11-13', calls: 100n },
    ] as never;
    expect(apiKeyCalls({ dailyUsage }, now)).toEqual({ today: 3, last14Days: 15 });
  });
  it('is nothing today when the newest day is an earlier one', () => {
    expect(apiKeyCalls({ dailyUsage: [{ date: '2026-11-26', calls: 4n }] as never }, now)).toEqual({ today: 0, last14Days: 4 });
  });
});

describe('the form', () => {
  it('offers tomorrow to a year from today', () => {
    expect(expiryBounds(now)).toEqual({ min: '2026-11-28', max: '2027-11-27' });
  });
  it('expires at the end of the chosen day, or never', () => {
    expect(expireTimeOf('')).toBeUndefined();
    expect(expireTimeOf('2026-12-31')?.seconds).toBe(BigInt(Date.parse('2026-12-31T23:59:59Z') / 1000));
  });
  it('sends the name trimmed and the scopes in the order offered', () => {
    const key = newApiKeyOf({ displayName: '  ERP ', scopes: ['b', 'a'], expiresOn: '' }, ['a', 'b', 'c']);
    expect(key).toEqual({ displayName: 'ERP', scopes: ['a', 'b'], expireTime: undefined });
  });
  it("puts the server's violations next to their inputs", () => {
    expect(apiKeyFieldOf('api_key.display_name')).toBe('displayName');
    expect(apiKeyFieldOf('api_key.scopes[1]')).toBe('scopes');
    expect(apiKeyFieldOf('api_key.expire_time')).toBe('expiresOn');
    expect(apiKeyFieldOf('page_size')).toBeNull();
  });
});
