import { beforeEach, describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { i18n, type Messages } from '@lingui/core';
import { BadRequestSchema } from '@/gen/google/rpc/error_details_pb';
import english from '@/locales/en/track.json';
import spanish from '@/locales/es/track.json';
import { compileCatalogue } from '../../../../scripts/catalogues.mjs';
import { callErrorMessage, refusedLinkMessage, SUBSCRIBE_ERRORS, trackingErrorMessage, VERIFY_ERRORS } from './errors';

i18n.load({ en: compileCatalogue(english) as Messages, es: compileCatalogue(spanish) as Messages });

/** An InvalidArgument error with one field violation, as the server sends it. */
function violation(field: string, description: string): ConnectError {
  return new ConnectError(`Invalid shipment: ${field}: ${description}`, Code.InvalidArgument, undefined, [
    { desc: BadRequestSchema, value: { fieldViolations: [{ field, description }] } },
  ]);
}

describe('on an English page', () => {
  beforeEach(() => i18n.activate('en'));

  it('shows the not-found sentence for every lookup failure', () => {
    for (const error of [
      new ConnectError('Shipment not found', Code.NotFound),
      new ConnectError('bad', Code.InvalidArgument),
      new ConnectError('down', Code.Unavailable),
      new TypeError('Failed to fetch'),
    ]) {
      expect(trackingErrorMessage(error)).toBe('Shipment not found. Please check your tracking number and try again.');
    }
  });

  it('says what a number looks like when the server finds it malformed, not that it was not found', () => {
    const message = trackingErrorMessage(violation('tracking_number', 'must be PSE followed by 9 digits'));
    expect(message).toBe(english['track.error.malformed']);
    expect(message).toContain('PSE followed by 9 digits');
    expect(message).not.toBe(english['track.error.not_found']);
  });

  it("shows the server's sentences", () => {
    const limit = 'Too many tracking lookups. Please try again in a minute.';
    expect(trackingErrorMessage(new ConnectError(limit, Code.ResourceExhausted))).toBe(limit);
    expect(refusedLinkMessage(violation('access_token', 'This link has expired.'))).toBe('This link has expired.');
    expect(refusedLinkMessage(new ConnectError('Shipment not found', Code.NotFound))).toBeNull();
    expect(callErrorMessage(violation('answer', 'These details do not match.'), VERIFY_ERRORS)).toBe('These details do not match.');
    expect(callErrorMessage(new ConnectError('Too many attempts.', Code.ResourceExhausted), VERIFY_ERRORS)).toBe('Too many attempts.');
    expect(callErrorMessage(new TypeError('Failed to fetch'), SUBSCRIBE_ERRORS)).toBe(
      'We could not send the confirmation e-mail. Please try again.',
    );
  });
});

describe('on a page in another language', () => {
  beforeEach(() => i18n.activate('es'));

  it("says the page's own sentence for the failure's code or field", () => {
    expect(trackingErrorMessage(new ConnectError('Too many lookups.', Code.ResourceExhausted))).toBe(spanish['track.error.too_many_lookups']);
    expect(trackingErrorMessage(new ConnectError('Shipment not found', Code.NotFound))).toBe(spanish['track.error.not_found']);
    expect(trackingErrorMessage(violation('tracking_number', 'must be PSE followed by 9 digits'))).toBe(spanish['track.error.malformed']);
    expect(refusedLinkMessage(violation('access_token', 'This link has expired.'))).toBe(spanish['track.error.link_refused']);
    expect(callErrorMessage(violation('answer', 'These details do not match.'), VERIFY_ERRORS)).toBe(spanish['track.verify.no_match']);
    expect(callErrorMessage(new ConnectError('Too many attempts.', Code.ResourceExhausted), VERIFY_ERRORS)).toBe(spanish['track.verify.too_many']);
    expect(callErrorMessage(violation('email', 'must be a valid e-mail address'), SUBSCRIBE_ERRORS)).toBe(
      spanish['track.subscribe.invalid_email'],
    );
  });

  it('falls back to the call\'s sentence for anything else', () => {
    expect(callErrorMessage(violation('language_code', 'is not offered'), SUBSCRIBE_ERRORS)).toBe(spanish['track.subscribe.failed']);
    expect(callErrorMessage(new ConnectError('Internal error', Code.Internal), VERIFY_ERRORS)).toBe(spanish['track.verify.failed']);
    expect(callErrorMessage(new TypeError('Failed to fetch'), VERIFY_ERRORS)).toBe(spanish['track.verify.failed']);
  });
});
