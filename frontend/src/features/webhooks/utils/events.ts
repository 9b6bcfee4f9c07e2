import { WebhookDeliveryState, WebhookEventType } from '@/gen/logistics/v1/webhook_service_pb';
import type { WebhookWords } from '../components/words';

/** What an endpoint can subscribe to, by the names the payloads carry. */
export const EVENTS = [
  { type: WebhookEventType.SHIPMENT_CREATED, name: 'shipment.created' },
  { type: WebhookEventType.SHIPMENT_STATUS_CHANGED, name: 'shipment.status_changed' },
  { type: WebhookEventType.SHIPMENT_DELIVERED, name: 'shipment.delivered' },
  { type: WebhookEventType.SHIPMENT_UPDATED, name: 'shipment.updated' },
  { type: WebhookEventType.SHIPMENT_DELETED, name: 'shipment.deleted' },
] as const;

/** An event's name on the wire: one an endpoint may want, or the test event. */
export type EventName = (typeof EVENTS)[number]['name'] | 'webhook.test';

/** The name of an event type, or null for one this screen does not know. */
export function eventName(type: WebhookEventType): EventName | null {
  if (type === WebhookEventType.TEST) return 'webhook.test';
  return EVENTS.find((e) => e.type === type)?.name ?? null;
}

/** An event type in the screen's words. */
export function eventLabel(words: Pick<WebhookWords, 'event' | 'unknownEvent'>, type: WebhookEventType): string {
  const name = eventName(type);
  return name ? words.event[name] : words.unknownEvent;
}

export type DeliveryStateName = 'queued' | 'sending' | 'sent' | 'retrying' | 'failed';

/** Each state a delivery can be in, and the tone of its pill. */
export const DELIVERY_STATES: Record<number, { name: DeliveryStateName; tone: string }> = {
  [WebhookDeliveryState.QUEUED]: { name: 'queued', tone: 'grey' },
  [WebhookDeliveryState.SENDING]: { name: 'sending', tone: 'blue' },
  [WebhookDeliveryState.SENT]: { name: 'sent', tone: 'green' },
  [WebhookDeliveryState.RETRYING]: { name: 'retrying', tone: 'yellow' },
  [WebhookDeliveryState.FAILED]: { name: 'failed', tone: 'red' },
};
