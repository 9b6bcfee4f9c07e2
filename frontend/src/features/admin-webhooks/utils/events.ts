import { WebhookDeliveryState, WebhookEventType } from '@/gen/logistics/v1/webhook_service_pb';

/** What an endpoint can subscribe to, in the words the screen shows. */
export const EVENTS: ReadonlyArray<{ type: WebhookEventType; label: string; name: string }> = [
  { type: WebhookEventType.SHIPMENT_CREATED, label: 'Shipment created', name: 'shipment.created' },
  { type: WebhookEventType.SHIPMENT_STATUS_CHANGED, label: 'Status changed', name: 'shipment.status_changed' },
  { type: WebhookEventType.SHIPMENT_DELIVERED, label: 'Delivered', name: 'shipment.delivered' },
  { type: WebhookEventType.SHIPMENT_UPDATED, label: 'Shipment updated', name: 'shipment.updated' },
  { type: WebhookEventType.SHIPMENT_DELETED, label: 'Shipment deleted', name: 'shipment.deleted' },
];

export function eventLabel(type: WebhookEventType): string {
  if (type === WebhookEventType.TEST) return 'Test event';
  return EVENTS.find((e) => e.type === type)?.label ?? 'Event';
}

export const DELIVERY_STATES: Record<number, { label: string; tone: string }> = {
  [WebhookDeliveryState.QUEUED]: { label: 'Queued', tone: 'grey' },
  [WebhookDeliveryState.SENDING]: { label: 'Sending', tone: 'blue' },
  [WebhookDeliveryState.SENT]: { label: 'Sent', tone: 'green' },
  [WebhookDeliveryState.RETRYING]: { label: 'Retrying', tone: 'yellow' },
  [WebhookDeliveryState.FAILED]: { label: 'Failed', tone: 'red' },
};
