// The quote page's calls. The Connect client is imported on first use, so the prerendered page
// itself does not load it. A customer's user signed in on this browser is quoted on their own
// card (CustomerPortalService.CreateQuote); anyone else on the public one (QuoteService).
import type { Quote } from '@/gen/logistics/v1/rate_card_service_pb';
import { toQuoteRequest, type QuoteFormValues } from '../utils/quote-form';

const TIMEOUT_MS = 15_000;

let customerSession: Promise<boolean> | undefined;

/** Whether this browser's session is a customer's user's, asked once per page load (a failed
 * ask counts as no session, and is asked again next time). */
export function signedInAsCustomer(): Promise<boolean> {
  customerSession ??= (async () => {
    const [{ sessionClient }, { isCustomerUser }] = await Promise.all([import('@/lib/transport'), import('@/config/permissions')]);
    try {
      const { user } = await sessionClient.getSession({}, { timeoutMs: TIMEOUT_MS });
      return Boolean(user && isCustomerUser(user));
    } catch {
      customerSession = undefined;
      return false;
    }
  })();
  return customerSession;
}

/** Prices the parcels: every service on the route, cheapest first (none: no service there). */
export async function createQuote(values: QuoteFormValues): Promise<Quote> {
  const request = toQuoteRequest(values);
  const [{ createClient }, { transport }, asCustomer] = await Promise.all([
    import('@connectrpc/connect'),
    import('@/lib/transport'),
    signedInAsCustomer(),
  ]);
  if (asCustomer) {
    const { CustomerPortalService } = await import('@/gen/logistics/v1/customer_portal_service_pb');
    return createClient(CustomerPortalService, transport).createQuote(request, { timeoutMs: TIMEOUT_MS });
  }
  const { QuoteService } = await import('@/gen/logistics/v1/rate_card_service_pb');
  return createClient(QuoteService, transport).createQuote(request, { timeoutMs: TIMEOUT_MS });
}
