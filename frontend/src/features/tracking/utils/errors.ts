// What a visitor reads when a call fails (the product's error catalogue). The server writes its sentences in English:
// an English page shows them as they are; a page in another language shows its own message for
// the failure's gRPC code or for the field a violation names.
import { Code, ConnectError } from '@connectrpc/connect';
import { currentLanguage, i18n } from '@/lib/i18n';
import { fieldViolations, singleFieldError } from '@/lib/rpc-errors';

/** Whether the server's own sentences can be shown. */
function inEnglish(): boolean {
  return currentLanguage() === 'en';
}

/** The not-found sentence for every lookup failure, except a rate limit, which says when to try
 * again, and a malformed number, which says what a number looks like. */
export function trackingErrorMessage(error: unknown): string {
  const err = ConnectError.from(error);
  if (err.code === Code.ResourceExhausted && err.rawMessage.trim()) {
    return inEnglish() ? err.rawMessage : i18n._('track.error.too_many_lookups');
  }
  if (fieldViolations(error).some((v) => v.field === 'tracking_number')) {
    return i18n._('track.error.malformed');
  }
  return i18n._('track.error.not_found');
}

/** What to say when the `access` token of an e-mail link is refused (expired, or for another
 * shipment); null for any other failure. */
export function refusedLinkMessage(error: unknown): string | null {
  const refused = fieldViolations(error).find((v) => v.field === 'access_token');
  if (!refused) return null;
  return inEnglish() ? refused.description : i18n._('track.error.link_refused');
}

/** A call's messages, as ids: `fallback` when nothing better is known (network failure, timeout,
 * server fault), else by the field a violation names or by the gRPC code. */
type CallErrors = { fallback: string; fields?: Record<string, string>; codes?: Partial<Record<Code, string>> };

export const VERIFY_ERRORS: CallErrors = {
  fallback: 'track.verify.failed',
  fields: { answer: 'track.verify.no_match' },
  codes: { [Code.ResourceExhausted]: 'track.verify.too_many', [Code.FailedPrecondition]: 'track.verify.not_offered' },
};

export const SEND_LINK_ERRORS: CallErrors = {
  fallback: 'track.verify.link_failed',
  codes: { [Code.ResourceExhausted]: 'track.verify.too_many', [Code.FailedPrecondition]: 'track.verify.not_offered' },
};

export const SUBSCRIBE_ERRORS: CallErrors = {
  fallback: 'track.subscribe.failed',
  fields: { email: 'track.subscribe.invalid_email' },
  codes: { [Code.ResourceExhausted]: 'track.subscribe.too_many' },
};

export const CONFIRM_ERRORS: CallErrors = {
  fallback: 'track.link.confirm_failed',
  fields: { token: 'track.link.confirm_invalid' },
  codes: { [Code.ResourceExhausted]: 'track.subscribe.too_many' },
};

export const UNSUBSCRIBE_ERRORS: CallErrors = {
  fallback: 'track.link.unsubscribe_failed',
  fields: { token: 'track.link.unsubscribe_invalid' },
};

/** What a form with one input (or a followed link) shows after a failed call: in English the
 * field violations' sentences, else the server's, else the fallback (rpc-errors.ts). */
export function callErrorMessage(error: unknown, { fallback, fields = {}, codes = {} }: CallErrors): string {
  if (inEnglish()) return singleFieldError(error, i18n._(fallback));
  const violations = fieldViolations(error);
  const ids =
    violations.length > 0
      ? violations.map((v) => fields[v.field] ?? fallback)
      : [codes[ConnectError.from(error).code] ?? fallback];
  return [...new Set(ids)].map((id) => i18n._(id)).join(' ');
}
