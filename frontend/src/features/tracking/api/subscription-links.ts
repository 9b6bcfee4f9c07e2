// The links in subscription e-mails (confirm, unsubscribe). Loaded on demand by
// hooks/use-subscription-link.ts, only when the address carries such a link's token.
import { singleFieldError } from '@/lib/rpc-errors';
import { shipmentClient } from '@/lib/transport';
import {
  CONFIRMED_MESSAGE,
  CONFIRM_FAILED_MESSAGE,
  UNSUBSCRIBE_FAILED_MESSAGE,
  unsubscribedMessage,
} from '../utils/messages';

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
      return { ok: true, message: CONFIRMED_MESSAGE };
    }
    const ended = await shipmentClient.deleteShipmentSubscription({ token }, { timeoutMs: TIMEOUT_MS });
    return { ok: true, message: unsubscribedMessage(ended.trackingNumber || trackingNumber) };
  } catch (error) {
    return { ok: false, message: singleFieldError(error, kind === 'confirm' ? CONFIRM_FAILED_MESSAGE : UNSUBSCRIBE_FAILED_MESSAGE) };
  }
}
