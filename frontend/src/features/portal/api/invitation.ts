// The invitation page's calls (public: the token of the link is the only credential).
import { skipToken, useMutation, useQuery } from '@connectrpc/connect-query';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';

/** Who invited whom, for the link's token ('' asks nothing). */
export function useCustomerInvitation(token: string) {
  return useQuery(AuthService.method.getCustomerInvitation, token ? { token } : skipToken);
}

/** Sets the name and password: the invited user exists from then on. */
export function useAcceptInvitation() {
  return useMutation(AuthService.method.acceptCustomerInvitation);
}
