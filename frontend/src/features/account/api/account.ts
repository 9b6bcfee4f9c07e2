// The signed-in user's own account: their password and the browsers signed in as them.
import { createConnectQueryKey } from '@connectrpc/connect-query';
import { SessionService } from '@/gen/logistics/v1/session_service_pb';
import { authClient, sessionClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

/** The key of the sessions list, for invalidation after a change. */
export const OWN_SESSIONS_KEY = createConnectQueryKey({
  schema: SessionService.method.listSessions,
  cardinality: 'finite',
});

/** Changes the password; the gateway keeps this browser signed in and ends the others. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await authClient.changePassword({ currentPassword, newPassword }, { timeoutMs: TIMEOUT_MS });
}

export async function endSession(id: string): Promise<void> {
  await sessionClient.endSession({ id }, { timeoutMs: TIMEOUT_MS });
}

/** Signs out every other browser; how many were signed out. */
export async function endOtherSessions(): Promise<number> {
  return (await sessionClient.endOtherSessions({}, { timeoutMs: TIMEOUT_MS })).endedCount;
}
