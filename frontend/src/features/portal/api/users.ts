// The customer's own users, for its admins (AuthService.ListCustomerUsers and
// SetCustomerUserDisabled) and their invitations (CustomerPortalService.CreateUserInvitation).
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import { CustomerPortalService } from '@/gen/logistics/v1/customer_portal_service_pb';

const PAGE_SIZE = 50;

/** One page of the customer's users, oldest first; the page shown stays until the next arrives. */
export function useCustomerUsers(pageToken: string) {
  return useQuery(AuthService.method.listCustomerUsers, { pageSize: PAGE_SIZE, pageToken }, { placeholderData: keepPreviousData });
}

/** Disables or enables one user; every page of the list loads again after it. */
export function useSetCustomerUserDisabled() {
  const queryClient = useQueryClient();
  return useMutation(AuthService.method.setCustomerUserDisabled, {
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: AuthService.method.listCustomerUsers, cardinality: undefined }),
      }),
  });
}

/** E-mails a person a link to join the customer (they appear in the list once they accept). */
export function useInviteCustomerUser() {
  return useMutation(CustomerPortalService.method.createUserInvitation);
}
