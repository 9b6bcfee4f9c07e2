import { describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { LOGIN_FALLBACK_MESSAGE, loginErrorMessage } from './login-error';

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
    expect(loginErrorMessage(new TypeError('Failed to fetch'))).toBe(LOGIN_FALLBACK_MESSAGE);
    expect(loginErrorMessage(new ConnectError('boom', Code.Internal))).toBe(LOGIN_FALLBACK_MESSAGE);
  });
});
