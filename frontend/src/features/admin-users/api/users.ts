// The admin's user calls (through the gateway, with the session cookie).
import type { Role, User } from '@/gen/logistics/v1/user_pb';
import { authClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

/** Every user, oldest first (pages of 100 are followed to the end). */
export async function listAllUsers(signal?: AbortSignal): Promise<User[]> {
  const users: User[] = [];
  let pageToken = '';
  for (let page = 0; page < 100; page += 1) {
    const response = await authClient.listUsers({ pageSize: 100, pageToken }, { signal, timeoutMs: TIMEOUT_MS });
    users.push(...response.users);
    if (!response.nextPageToken) break;
    pageToken = response.nextPageToken;
  }
  return users;
}

export function createUser(input: { email: string; name: string; role: Role; password: string }): Promise<User> {
  return authClient.createUser(
    { user: { email: input.email, name: input.name, role: input.role }, password: input.password },
    { timeoutMs: TIMEOUT_MS },
  );
}

export function setUserDisabled(id: string, disabled: boolean): Promise<User> {
  return authClient.setUserDisabled({ id, disabled }, { timeoutMs: TIMEOUT_MS });
}

/** Changes a user's role (which gives them all of its permissions). */
export function changeRole(id: string, role: Role): Promise<User> {
  return authClient.updateUser({ user: { id, role }, updateMask: { paths: ['role'] } }, { timeoutMs: TIMEOUT_MS });
}

/** Narrows a user to some of their role's permissions. */
export function narrowPermissions(id: string, permissions: string[]): Promise<User> {
  return authClient.updateUser(
    { user: { id, permissions }, updateMask: { paths: ['permissions'] } },
    { timeoutMs: TIMEOUT_MS },
  );
}
