// What the courier app needs to open without signal: the courier who last signed in on this
// phone and their round of the day, kept in the browser until sign-out.
import { fromJsonString, toJsonString } from '@bufbuild/protobuf';
import { ListCourierStopsResponseSchema, type ListCourierStopsResponse } from '@/gen/logistics/v1/shipment_service_pb';
import { UserSchema, type User } from '@/gen/logistics/v1/user_pb';

const USER_KEY = 'courier-user';
const ROUND_KEY = 'courier-round';

type KeptRound = { day: string; email: string; round: string };

/** The server's day (UTC), as the round is. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage full or refused: the app works online as before.
  }
}

export function keepCourier(user: User): void {
  write(USER_KEY, toJsonString(UserSchema, user));
}

/** The courier kept on this phone, if any. */
export function keptCourier(): User | null {
  const json = read(USER_KEY);
  if (!json) return null;
  try {
    return fromJsonString(UserSchema, json, { ignoreUnknownFields: true });
  } catch {
    return null;
  }
}

/** Kept only for the courier kept on this phone: a read that lands after sign-out keeps nothing. */
export function keepRound(email: string, round: ListCourierStopsResponse): void {
  if (keptCourier()?.email !== email) return;
  const kept: KeptRound = { day: today(), email, round: toJsonString(ListCourierStopsResponseSchema, round) };
  write(ROUND_KEY, JSON.stringify(kept));
}

/** Today's round of `email` as last read, if it was read today on this phone. */
export function keptRound(email: string): ListCourierStopsResponse | undefined {
  try {
    const kept = JSON.parse(read(ROUND_KEY) ?? 'null') as KeptRound | null;
    if (kept?.day !== today() || kept.email !== email) return undefined;
    return fromJsonString(ListCourierStopsResponseSchema, kept.round, { ignoreUnknownFields: true });
  } catch {
    return undefined;
  }
}

/** Signing out leaves nothing of the courier or their stops on the phone. */
export function forgetCourier(): void {
  write(USER_KEY, null);
  write(ROUND_KEY, null);
}
