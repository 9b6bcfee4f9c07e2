// The admin's webhook calls: endpoints, their secrets and their deliveries.
import type {
  CreateWebhookEndpointResponse,
  RotateWebhookEndpointSecretResponse,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEventType,
} from '@/gen/logistics/v1/webhook_service_pb';
import { webhookClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_HOURS = 24;

export type NewEndpoint = { url: string; events: WebhookEventType[]; description: string };

export function createEndpoint(endpoint: NewEndpoint): Promise<CreateWebhookEndpointResponse> {
  return webhookClient.createWebhookEndpoint(endpoint, { timeoutMs: TIMEOUT_MS });
}

export function setEndpointEnabled(id: string, enabled: boolean): Promise<WebhookEndpoint> {
  return webhookClient.updateWebhookEndpoint(
    { endpoint: { id, enabled }, updateMask: { paths: ['enabled'] } },
    { timeoutMs: TIMEOUT_MS },
  );
}

export async function deleteEndpoint(id: string): Promise<void> {
  await webhookClient.deleteWebhookEndpoint({ id }, { timeoutMs: TIMEOUT_MS });
}

export function rotateSecret(id: string): Promise<RotateWebhookEndpointSecretResponse> {
  return webhookClient.rotateWebhookEndpointSecret(
    { id, overlapSeconds: BigInt(ROTATION_OVERLAP_HOURS * 3600) },
    { timeoutMs: TIMEOUT_MS },
  );
}

export function sendTestEvent(endpointId: string): Promise<WebhookDelivery> {
  return webhookClient.sendTestWebhookEvent({ endpointId }, { timeoutMs: TIMEOUT_MS });
}

export function resendDelivery(id: string): Promise<WebhookDelivery> {
  return webhookClient.resendWebhookDelivery({ id }, { timeoutMs: TIMEOUT_MS });
}
