import { Code, ConnectError } from '@connectrpc/connect';
import type { User } from '@/gen/logistics/v1/user_pb';
import { sessionClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

/** Signs in; the gateway sets the HttpOnly session cookie. */
export async function createSession(email: string, password: string): Promise<User | undefined> {
  const session = await sessionClient.createSession({ email, password }, { timeoutMs: TIMEOUT_MS });
  return session.user;
}

/** This browser's user (the session restored from the cookie), or null when it has no session;
 * any other failure (the network, the gateway) rejects. */
export async function getSession(signal?: AbortSignal): Promise<User | null> {
  try {
    const session = await sessionClient.getSession({}, { signal, timeoutMs: TIMEOUT_MS });
    return session.user ?? null;
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.Unauthenticated) return null;
    throw error;
  }
}

/** Signs out: the gateway deletes the session and clears the cookie. */
export async function deleteSession(): Promise<void> {
  await sessionClient.deleteSession({}, { timeoutMs: TIMEOUT_MS });
}
