// The API keys screen's pure parts: a key's status, its calls, the form's values as the request,
// and where the server's field violations go.
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ApiKey } from '@/gen/logistics/v1/api_key_service_pb';

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

export type ApiKeyFormValues = { displayName: string; scopes: string[]; expiresOn: string };

/** Revoked wins over expired; a key without an expiry never expires. */
export function apiKeyStatus(key: Pick<ApiKey, 'revokeTime' | 'expireTime'>, now: Date): ApiKeyStatus {
  if (key.revokeTime) return 'revoked';
  if (key.expireTime && timestampDate(key.expireTime).getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/** "YYYY-MM-DD" of `date` in UTC, the days the usage is counted in. */
function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The calls of today (UTC) and of the last 14 days, today included. */
export function apiKeyCalls(key: Pick<ApiKey, 'dailyUsage'>, now: Date): { today: number; last14Days: number } {
  const today = utcDay(now);
  const first = utcDay(new Date(now.getTime() - 13 * 86_400_000));
  let todayCalls = 0;
  let total = 0;
  for (const { date, calls } of key.dailyUsage) {
    if (date < first || date > today) continue;
    total += Number(calls);
    if (date === today) todayCalls += Number(calls);
  }
  return { today: todayCalls, last14Days: total };
}

/** The earliest and latest day "Expires on" offers: tomorrow, and a year from today. */
export function expiryBounds(now: Date): { min: string; max: string } {
  return { min: utcDay(new Date(now.getTime() + 86_400_000)), max: utcDay(new Date(now.getTime() + 365 * 86_400_000)) };
}

/** The key expires at the end of the chosen day (UTC); no day, no expiry. */
export function expireTimeOf(expiresOn: string): Timestamp | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresOn)) return undefined;
  const date = new Date(`${expiresOn}T23:59:59Z`);
  return Number.isNaN(date.getTime()) ? undefined : timestampFromDate(date);
}

/** The create request's key: the name trimmed, the scopes in the order offered. */
export function newApiKeyOf(values: ApiKeyFormValues, offered: readonly string[]) {
  return {
    displayName: values.displayName.trim(),
    scopes: offered.filter((scope) => values.scopes.includes(scope)),
    expireTime: expireTimeOf(values.expiresOn),
  };
}

/** The form's input for a violation's field ("api_key.display_name" → displayName), or null when
 * the form has no such input. */
export function apiKeyFieldOf(path: string): keyof ApiKeyFormValues | null {
  const name = path.trim().replace(/^api_key\./, '').replace(/\[\d+\]$/, '');
  if (name === 'display_name') return 'displayName';
  if (name === 'scopes') return 'scopes';
  if (name === 'expire_time') return 'expiresOn';
  return null;
}
