// The contact form's one call. The Connect client is imported on first send, so the contact
// page itself (prerendered, and light) does not load it.

export type ContactMessage = { name: string; email: string; subject: string; message: string; website: string };

export async function sendContactMessage(message: ContactMessage): Promise<void> {
  const { notificationClient } = await import('@/lib/transport');
  await notificationClient.sendContactMessage(message, { timeoutMs: 15_000 });
}
