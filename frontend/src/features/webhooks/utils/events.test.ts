import { describe, expect, it } from 'vitest';
import { WebhookEventType } from '@/gen/logistics/v1/webhook_service_pb';
import { eventName } from './events';

describe('eventName', () => {
  it('names the events an endpoint may want and the test event as the payloads do', () => {
    expect(eventName(WebhookEventType.SHIPMENT_CREATED)).toBe('shipment.created');
    expect(eventName(WebhookEventType.SHIPMENT_STATUS_CHANGED)).toBe('shipment.status_changed');
    expect(eventName(WebhookEventType.TEST)).toBe('webhook.test');
  });
  it('is null for a type this screen does not know', () => {
    expect(eventName(WebhookEventType.UNSPECIFIED)).toBeNull();
  });
});
