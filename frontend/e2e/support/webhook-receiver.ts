// A receiver on a loopback port that records every delivery, and the signature check the
// README tells receivers to make.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { freePort } from './gateway';

export type Delivery = { path: string; headers: IncomingHttpHeaders; body: string };

export type WebhookReceiver = {
  url: string;
  /** What arrived so far, in order. */
  received: Delivery[];
  stop: () => Promise<void>;
};

/** Whether one of the `v1,` signatures is HMAC-SHA256 of "id.timestamp.body" under `secret`. */
export function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`;
  const expected = createHmac('sha256', key).update(signed).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .some((s) => {
      const given = Buffer.from(s.slice(3), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** Starts a receiver that answers 204 to everything. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const port = await freePort();
  const received: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    stop: () => new Promise((closed) => server.close(() => closed())),
  };
}
