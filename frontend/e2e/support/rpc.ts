// The product's own generated clients, called from a test through a browser context's request
// API, so a call shares that context's cookies (its admin session, its tracking grants).
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import type { APIRequestContext } from '@playwright/test';
import { AuditService } from '../../src/gen/logistics/v1/audit_service_pb';
import { AuthService } from '../../src/gen/logistics/v1/auth_service_pb';
import { CustomerPortalService } from '../../src/gen/logistics/v1/customer_portal_service_pb';
import { CustomerService } from '../../src/gen/logistics/v1/customer_service_pb';
import { NotificationService } from '../../src/gen/logistics/v1/notification_service_pb';
import type { Notification } from '../../src/gen/logistics/v1/notification_pb';
import { PickupService } from '../../src/gen/logistics/v1/pickup_service_pb';
import { SessionService } from '../../src/gen/logistics/v1/session_service_pb';
import { ShipmentExceptionService } from '../../src/gen/logistics/v1/shipment_exception_service_pb';
import { ShipmentService } from '../../src/gen/logistics/v1/shipment_service_pb';
import { adminEmail, adminPassword } from './admin';

export type Clients = {
  shipments: Client<typeof ShipmentService>;
  notifications: Client<typeof NotificationService>;
  sessions: Client<typeof SessionService>;
  users: Client<typeof AuthService>;
  audit: Client<typeof AuditService>;
  customers: Client<typeof CustomerService>;
  portal: Client<typeof CustomerPortalService>;
  pickups: Client<typeof PickupService>;
  exceptions: Client<typeof ShipmentExceptionService>;
};

/** A `fetch` that goes through Playwright's request API (and so its cookie jar). */
export function fetchThrough(request: APIRequestContext, origin: string): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = { origin };
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const body = init?.body;
    const response = await request.fetch(url, {
      method: init?.method ?? 'GET',
      headers,
      data: body instanceof Uint8Array ? Buffer.from(body) : typeof body === 'string' ? body : undefined,
    });
    // Playwright's jar keeps the cookies; several Set-Cookie lines joined are no valid header.
    const answer = new Headers();
    for (const { name, value } of response.headersArray()) if (name.toLowerCase() !== 'set-cookie') answer.append(name, value);
    return new Response(new Uint8Array(await response.body()), { status: response.status(), headers: answer });
  };
}

export function rpc(request: APIRequestContext, baseURL: string): Clients {
  const origin = new URL(baseURL).origin;
  const transport = createGrpcWebTransport({ baseUrl: origin, fetch: fetchThrough(request, origin) });
  return {
    shipments: createClient(ShipmentService, transport),
    notifications: createClient(NotificationService, transport),
    sessions: createClient(SessionService, transport),
    users: createClient(AuthService, transport),
    audit: createClient(AuditService, transport),
    customers: createClient(CustomerService, transport),
    portal: createClient(CustomerPortalService, transport),
    pickups: createClient(PickupService, transport),
    exceptions: createClient(ShipmentExceptionService, transport),
  };
}

/** The same clients, signed in as the first admin (the session cookie lands in `request`'s jar). */
export async function adminRpc(request: APIRequestContext, baseURL: string): Promise<Clients> {
  const clients = rpc(request, baseURL);
  await clients.sessions.createSession({ email: adminEmail(), password: adminPassword() });
  return clients;
}

/** Every e-mail in the outbox, newest first. */
export async function listEmails(clients: Clients): Promise<Notification[]> {
  const all: Notification[] = [];
  let pageToken = '';
  do {
    const page = await clients.notifications.listNotifications({ pageSize: 100, pageToken });
    all.push(...page.notifications);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return all;
}
