// The staff's customer calls (customers.read / customers.manage), through connect-query: every
// change loads again the views that show it.
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import type { CustomerStatus } from '@/gen/logistics/v1/customer_pb';
import { CustomerService } from '@/gen/logistics/v1/customer_service_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';

const PAGE_SIZE = 20;
/** How many of a customer's shipments its page lists (the shipments screen has them all). */
const SHIPMENTS_SHOWN = 10;

export function useCustomersPage(filter: { query: string; status: CustomerStatus; pageToken: string }) {
  return useQuery(
    CustomerService.method.listCustomers,
    { pageSize: PAGE_SIZE, ...filter },
    { placeholderData: keepPreviousData },
  );
}

export function useCustomer(id: string) {
  return useQuery(CustomerService.method.getCustomer, { id });
}

/** The customer's users (up to 100, oldest first). */
export function useCustomerUsers(customerId: string, enabled: boolean) {
  return useQuery(AuthService.method.listUsers, { customerId, pageSize: 100 }, { enabled });
}

/** The customer's latest shipments. */
export function useCustomerShipments(customerId: string, enabled: boolean) {
  return useQuery(ShipmentService.method.listShipments, { customerId, pageSize: SHIPMENTS_SHOWN }, { enabled });
}

/** After a change to a customer: the customer lists and pages, and its users (a suspension signs
 * them out), load again. */
function useOnCustomerChange() {
  const queryClient = useQueryClient();
  return () =>
    void Promise.all(
      [CustomerService, AuthService].map((schema) =>
        queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema, cardinality: undefined }) }),
      ),
    );
}

export function useCreateCustomer() {
  return useMutation(CustomerService.method.createCustomer, { onSuccess: useOnCustomerChange() }).mutateAsync;
}

export function useUpdateCustomer() {
  return useMutation(CustomerService.method.updateCustomer, { onSuccess: useOnCustomerChange() }).mutateAsync;
}

export function useInviteUser() {
  return useMutation(CustomerService.method.createCustomerInvitation, { onSuccess: useOnCustomerChange() }).mutateAsync;
}
