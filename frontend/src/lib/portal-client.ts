// The portal's imperative client (the labels page prints a customer's shipments through it); its
// own module, so pages that never show the portal do not load its descriptors.
import { createClient, type Client } from '@connectrpc/connect';
import { CustomerPortalService } from '@/gen/logistics/v1/customer_portal_service_pb';
import { transport } from '@/lib/transport';

export const customerPortalClient: Client<typeof CustomerPortalService> = createClient(CustomerPortalService, transport);
