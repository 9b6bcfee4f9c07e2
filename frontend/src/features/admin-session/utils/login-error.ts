import { Code, ConnectError } from '@connectrpc/connect';

export const LOGIN_SUCCESS_MESSAGE = 'Login successful';
export const LOGIN_FALLBACK_MESSAGE = 'An error occurred during login.';
export const LOGIN_NETWORK_MESSAGE = 'Network error. Please check your connection';

/** The codes whose message the gateway writes for the person signing in. */
const USER_FACING = new Set<Code>([
  Code.InvalidArgument,
  Code.Unauthenticated,
  Code.PermissionDenied,
  Code.ResourceExhausted,
]);

/** The call got no answer at all: fetch() rejects with a TypeError when the browser is offline or
 * the connection fails, and a call that outlives its deadline never heard back either. */
function isNetworkFailure(err: ConnectError, online: boolean): boolean {
  if (!online || err.code === Code.DeadlineExceeded) return true;
  return err.code === Code.Unknown && err.cause instanceof TypeError;
}

/**
 * What the login form shows for a failed sign-in: the server's sentence ("Invalid email or
 * password", "This account has been disabled", "Too many failed attempts. Please try again
 * later", "Invalid email address format"), the spec's network sentence when the gateway could
 * not be reached, or the generic one for anything else.
 */
export function loginErrorMessage(error: unknown, online = typeof navigator === 'undefined' || navigator.onLine): string {
  const err = ConnectError.from(error);
  if (isNetworkFailure(err, online)) return LOGIN_NETWORK_MESSAGE;
  const message = err.rawMessage.trim();
  return USER_FACING.has(err.code) && message ? message : LOGIN_FALLBACK_MESSAGE;
}
