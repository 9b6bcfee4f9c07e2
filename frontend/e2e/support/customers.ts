// Customers for the portal specs: staff create one and invite a user (API), the invitee accepts
// with the token read from the outbox e-mail, and signs in on the portal's page.
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { CustomerPortalService } from '../../src/gen/logistics/v1/customer_portal_service_pb';
import { PaymentMode } from '../../src/gen/logistics/v1/shipment_pb';
import type { Role } from '../../src/gen/logistics/v1/user_pb';
import { siteUrl } from './env';
import { adminRpc, fetchThrough, listEmails, rpc, type Clients } from './rpc';

export const CUSTOMER_PASSWORD = 'portal-Passw0rd-2026';

export function staffClients(request: APIRequestContext): Promise<Clients> {
  return adminRpc(request, siteUrl());
}

/** A new customer. */
export function createCustomer(staff: Clients, company: string, contact: { name: string; email: string }) {
  return staff.customers.createCustomer({
    customer: {
      name: company,
      billingAddress: '1 Dock Road, Port City',
      contacts: [{ ...contact, phone: '+1 555 0100' }],
      defaultPaymentMode: PaymentMode.CASH,
    },
  });
}

/** Invites `email` to the customer as `role` and accepts the invitation with the e-mailed token. */
export async function addCustomerUser(staff: Clients, customerId: string, email: string, name: string, role: Role) {
  await staff.customers.createCustomerInvitation({ invitation: { customerId, email, name, role }, languageCode: 'en' });
  let token = '';
  await expect
    .poll(
      async () => {
        const mail = (await listEmails(staff)).find((n) => n.toEmail === email);
        token = /\/invitation#(\S+)/.exec(mail?.textBody ?? '')?.[1] ?? '';
        return token;
      },
      { message: `the invitation e-mail to ${email}` },
    )
    .not.toBe('');
  await staff.users.acceptCustomerInvitation({ token, name, password: CUSTOMER_PASSWORD });
}

/** A customer's user's portal calls, signed in through the API in `request`'s context. */
export async function customerPortal(request: APIRequestContext, email: string): Promise<Client<typeof CustomerPortalService>> {
  await rpc(request, siteUrl()).sessions.createSession({ email, password: CUSTOMER_PASSWORD });
  const transport = createGrpcWebTransport({ baseUrl: siteUrl(), fetch: fetchThrough(request, siteUrl()) });
  return createClient(CustomerPortalService, transport);
}

export async function signInToPortal(page: Page, email: string) {
  await page.goto('/portal/login');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(CUSTOMER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/portal$/);
}
