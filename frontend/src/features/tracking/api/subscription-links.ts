// The links in subscription e-mails (confirm, unsubscribe). Loaded on demand by
// components/SubscriptionLinkOutcome.tsx, only when the address carries such a link's token.
import { i18n } from '@/lib/i18n';
import { shipmentClient } from '@/lib/transport';
import { callErrorMessage, CONFIRM_ERRORS, UNSUBSCRIBE_ERRORS } from '../utils/errors';

const TIMEOUT_MS = 15_000;

export type SubscriptionLink = { kind: 'confirm' | 'unsubscribe'; token: string };
export type SubscriptionLinkResult = { ok: boolean; message: string };

/** Confirms the subscription or ends it, and says how it went (the server's message if not). */
export async function followSubscriptionLink(
  { kind, token }: SubscriptionLink,
  trackingNumber: string,
): Promise<SubscriptionLinkResult> {
  try {
    if (kind === 'confirm') {
      await shipmentClient.confirmShipmentSubscription({ token }, { timeoutMs: TIMEOUT_MS });
      return { ok: true, message: i18n._('track.link.confirmed') };
    }
    const ended = await shipmentClient.deleteShipmentSubscription({ token }, { timeoutMs: TIMEOUT_MS });
    return { ok: true, message: i18n._('track.link.unsubscribed', { trackingNumber: ended.trackingNumber || trackingNumber }) };
  } catch (error) {
    return { ok: false, message: callErrorMessage(error, kind === 'confirm' ? CONFIRM_ERRORS : UNSUBSCRIBE_ERRORS) };
  }
}
