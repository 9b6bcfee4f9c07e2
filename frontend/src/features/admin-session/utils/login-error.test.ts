import { describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { LOGIN_FALLBACK_MESSAGE, LOGIN_NETWORK_MESSAGE, loginErrorMessage } from './login-error';

describe('loginErrorMessage', () => {
  it("shows the server's sentence", () => {
    expect(loginErrorMessage(new ConnectError('Invalid email or password', Code.Unauthenticated))).toBe(
      'Invalid email or password',
    );
    expect(loginErrorMessage(new ConnectError('This account has been disabled', Code.PermissionDenied))).toBe(
      'This account has been disabled',
    );
    expect(
      loginErrorMessage(new ConnectError('Too many failed attempts. Please try again later', Code.ResourceExhausted)),
    ).toBe('Too many failed attempts. Please try again later');
    expect(loginErrorMessage(new ConnectError('Invalid email address format', Code.InvalidArgument))).toBe(
      'Invalid email address format',
    );
  });

  it('falls back to the generic sentence', () => {
    expect(loginErrorMessage(new ConnectError('upstream connect error', Code.Unavailable))).toBe(LOGIN_FALLBACK_MESSAGE);
    expect(loginErrorMessage(new ConnectError('', Code.Unauthenticated))).toBe(LOGIN_FALLBACK_MESSAGE);
    expect(loginErrorMessage(new ConnectError('boom', Code.Internal))).toBe(LOGIN_FALLBACK_MESSAGE);
  });

  it("says the network failed when the gateway could not be reached (the spec's wording)", () => {
    expect(LOGIN_NETWORK_MESSAGE).toBe('Network error. Please check your connection');
    // What connect-web throws when fetch() rejects (Chromium, Firefox and Safari wording).
    for (const text of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed']) {
      expect(loginErrorMessage(ConnectError.from(new TypeError(text)))).toBe(LOGIN_NETWORK_MESSAGE);
      expect(loginErrorMessage(new TypeError(text))).toBe(LOGIN_NETWORK_MESSAGE);
    }
    expect(loginErrorMessage(new ConnectError('the operation timed out', Code.DeadlineExceeded))).toBe(LOGIN_NETWORK_MESSAGE);
    // The browser knows it is offline, whatever the error says.
    expect(loginErrorMessage(new ConnectError('boom', Code.Unknown), false)).toBe(LOGIN_NETWORK_MESSAGE);
  });

  it('does not blame the network for an answer from the gateway', () => {
    expect(loginErrorMessage(new ConnectError('Invalid email or password', Code.Unauthenticated), true)).toBe(
      'Invalid email or password',
    );
    expect(loginErrorMessage(new ConnectError('HTTP 502', Code.Unavailable), true)).toBe(LOGIN_FALLBACK_MESSAGE);
    expect(loginErrorMessage(new ConnectError('missing trailer', Code.Unknown), true)).toBe(LOGIN_FALLBACK_MESSAGE);
  });
});
