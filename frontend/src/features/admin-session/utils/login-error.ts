import { Code, ConnectError } from '@connectrpc/connect';

export const LOGIN_SUCCESS_MESSAGE = 'Login successful';
export const LOGIN_FALLBACK_MESSAGE = 'An error occurred during login.';

/** The codes whose message the gateway writes for the person signing in. */
const USER_FACING = new Set<Code>([
  Code.InvalidArgument,
  Code.Unauthenticated,
  Code.PermissionDenied,
  Code.ResourceExhausted,
]);

/**
 * What the login form shows for a failed sign-in: the server's sentence ("Invalid email or
 * password", "This account has been disabled", "Too many failed attempts. Please try again
 * later", "Invalid email address format"), or the generic one for anything else.
 */
export function loginErrorMessage(error: unknown): string {
  const err = ConnectError.from(error);
  const message = err.rawMessage.trim();
  return USER_FACING.has(err.code) && message ? message : LOGIN_FALLBACK_MESSAGE;
}
