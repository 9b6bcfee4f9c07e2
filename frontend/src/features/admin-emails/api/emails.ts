// The admin's e-mail calls: the outbox, retrying failed e-mails, and the e-mail test.
import type { Notification } from '@/gen/logistics/v1/notification_pb';
import { notificationClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

export function retryEmail(id: string): Promise<Notification> {
  return notificationClient.retryNotification({ id }, { timeoutMs: TIMEOUT_MS });
}

/** Queues every failed e-mail the query matches again; resolves to how many. */
export async function retryFailedEmails(query: string): Promise<number> {
  const response = await notificationClient.retryFailedNotifications({ query }, { timeoutMs: TIMEOUT_MS });
  return Number(response.retriedCount);
}

/** Sends the sample shipper and receiver e-mails to the signed-in admin; resolves to the address. */
export async function sendTestEmails(): Promise<string> {
  // The API's answer can take a while; the button stays busy meanwhile.
  const response = await notificationClient.sendTestEmails({}, { timeoutMs: 30_000 });
  return response.toEmail;
}
