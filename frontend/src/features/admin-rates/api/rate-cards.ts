// The rate cards (RateCardService, rates.manage) through connect-query: a save or a delete loads
// the list again and puts the saved card in the cache; exports, imports and previews are calls
// the screen makes when asked.
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { CustomerService } from '@/gen/logistics/v1/customer_service_pb';
import { RateCardService } from '@/gen/logistics/v1/rate_card_service_pb';

/** How many customers the "Add a customer card" search shows. */
const CUSTOMER_RESULTS = 10;

/** The public card, then each customer's (without zones, services or lanes). */
export function useRateCardList() {
  return useQuery(RateCardService.method.listRateCards, {});
}

/** One card, whole; NOT_FOUND for a customer without a card of its own. */
export function useRateCard(id: string) {
  return useQuery(RateCardService.method.getRateCard, { id });
}

/** The customer a card is for (its name before its first save). */
export function useCustomer(id: string, enabled: boolean) {
  return useQuery(CustomerService.method.getCustomer, { id }, { enabled });
}

/** Customers whose name or account number matches `query`. */
export function useCustomerSearch(query: string) {
  return useQuery(CustomerService.method.listCustomers, { query, pageSize: CUSTOMER_RESULTS });
}

function useInvalidateCards() {
  const queryClient = useQueryClient();
  return () =>
    void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: RateCardService, cardinality: undefined }) });
}

/** Saves the whole card as its next version. */
export function useSaveRateCard() {
  const invalidate = useInvalidateCards();
  return useMutation(RateCardService.method.updateRateCard, { onSuccess: invalidate }).mutateAsync;
}

/** Removes a customer's card. */
export function useDeleteRateCard() {
  const invalidate = useInvalidateCards();
  return useMutation(RateCardService.method.deleteRateCard, { onSuccess: invalidate }).mutateAsync;
}

/** The card as CSV, with the file name to save it as. */
export function useExportRateCard() {
  return useMutation(RateCardService.method.exportRateCard).mutateAsync;
}

/** A CSV file read into a card, not saved. */
export function useParseRateCardCsv() {
  return useMutation(RateCardService.method.parseRateCardCsv).mutateAsync;
}

/** One card read when asked (the public card, to start a customer's own prices from it). */
export function useReadRateCard() {
  return useMutation(RateCardService.method.getRateCard).mutateAsync;
}

/** Prices a parcel on the card as it is on the screen. */
export function usePreviewQuote() {
  return useMutation(RateCardService.method.previewQuote);
}
