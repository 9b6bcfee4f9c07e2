// The admin's e-mail calls: the outbox, retrying a failed e-mail, and the e-mail test.
import type { Notification } from '@/gen/logistics/v1/notification_pb';
import type { ListNotificationsResponse } from '@/gen/logistics/v1/notification_service_pb';
import { notificationClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

export function listEmails(pageToken = '', signal?: AbortSignal): Promise<ListNotificationsResponse> {
  return notificationClient.listNotifications({ pageSize: 50, pageToken }, { signal, timeoutMs: TIMEOUT_MS });
}

export function retryEmail(id: string): Promise<Notification> {
  return notificationClient.retryNotification({ id }, { timeoutMs: TIMEOUT_MS });
}

/** Sends the sample shipper and receiver e-mails to the signed-in admin; resolves to the address. */
export async function sendTestEmails(): Promise<string> {
  // The API's answer can take a while; the button stays busy meanwhile.
  const response = await notificationClient.sendTestEmails({}, { timeoutMs: 30_000 });
  return response.toEmail;
}
