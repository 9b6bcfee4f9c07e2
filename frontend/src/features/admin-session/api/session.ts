import type { User } from '@/gen/logistics/v1/user_pb';
import { sessionClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

/** Signs in; the gateway sets the HttpOnly session cookie. */
export async function createSession(email: string, password: string): Promise<User | undefined> {
  const session = await sessionClient.createSession({ email, password }, { timeoutMs: TIMEOUT_MS });
  return session.user;
}

/** This browser's session (restored from the cookie); rejects with Unauthenticated without one. */
export async function getSession(signal?: AbortSignal): Promise<User | undefined> {
  const session = await sessionClient.getSession({}, { signal, timeoutMs: TIMEOUT_MS });
  return session.user;
}

/** Signs out: the gateway deletes the session and clears the cookie. */
export async function deleteSession(): Promise<void> {
  await sessionClient.deleteSession({}, { timeoutMs: TIMEOUT_MS });
}
