// The customer's address book and e-mail notification choices (CustomerPortalService).
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { CustomerPortalService } from '@/gen/logistics/v1/customer_portal_service_pb';
import type { AddressBookEntryKind } from '@/gen/logistics/v1/customer_pb';

const PAGE_SIZE = 20;

export type AddressBookRequest = { kind: AddressBookEntryKind; query: string; pageToken: string };

/** One page of entries; the page shown stays until the next one arrives. */
export function useAddressBook(request: AddressBookRequest) {
  return useQuery(
    CustomerPortalService.method.listAddressBookEntries,
    { pageSize: PAGE_SIZE, ...request },
    { placeholderData: keepPreviousData },
  );
}

/** Every entry of one kind, for the booking form's pickers (the server caps a page at 100). */
export function useAddressBookChoices(kind: AddressBookEntryKind) {
  return useQuery(CustomerPortalService.method.listAddressBookEntries, { pageSize: 100, kind });
}

/** After any change: every address book view loads again. */
function useInvalidateBook() {
  const queryClient = useQueryClient();
  return () =>
    void queryClient.invalidateQueries({
      queryKey: createConnectQueryKey({
        schema: CustomerPortalService.method.listAddressBookEntries,
        cardinality: undefined,
      }),
    });
}

export function useCreateEntry() {
  return useMutation(CustomerPortalService.method.createAddressBookEntry, { onSuccess: useInvalidateBook() });
}

export function useUpdateEntry() {
  return useMutation(CustomerPortalService.method.updateAddressBookEntry, { onSuccess: useInvalidateBook() });
}

export function useDeleteEntry() {
  return useMutation(CustomerPortalService.method.deleteAddressBookEntry, { onSuccess: useInvalidateBook() });
}

export function useImportEntries() {
  return useMutation(CustomerPortalService.method.importAddressBookEntries, { onSuccess: useInvalidateBook() });
}

/** Which moves of the customer's shipments e-mail this user, and in which language. */
export function useNotificationChoices() {
  return useQuery(CustomerPortalService.method.getNotificationChoices, {});
}

export function useUpdateNotificationChoices() {
  const queryClient = useQueryClient();
  return useMutation(CustomerPortalService.method.updateNotificationChoices, {
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({
          schema: CustomerPortalService.method.getNotificationChoices,
          cardinality: undefined,
        }),
      }),
  });
}
