// The caller's API keys (ApiKeyService): a customer admin's are the customer's, staff's their own.
// Through the app's one transport and QueryClient.
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { ApiKeyService } from '@/gen/logistics/v1/api_key_service_pb';

const PAGE_SIZE = 100;
/** The usage the list shows is asked for again this often (the gateway reports within seconds). */
const USAGE_REFRESH_MS = 30_000;

/** The keys, newest first (revoked and expired ones too), loaded again every 30 s. */
export function useApiKeyList() {
  return useQuery(ApiKeyService.method.listApiKeys, { pageSize: PAGE_SIZE }, { refetchInterval: USAGE_REFRESH_MS });
}

function useInvalidateList() {
  const queryClient = useQueryClient();
  return () =>
    void queryClient.invalidateQueries({
      queryKey: createConnectQueryKey({ schema: ApiKeyService.method.listApiKeys, cardinality: undefined }),
    });
}

/** Creates a key; the answer holds its secret, this once. The list loads again after it. */
export function useCreateApiKey() {
  const invalidate = useInvalidateList();
  return useMutation(ApiKeyService.method.createApiKey, { onSuccess: invalidate });
}

/** Revokes a key for good; the list loads again after it. */
export function useRevokeApiKey() {
  const invalidate = useInvalidateList();
  return useMutation(ApiKeyService.method.revokeApiKey, { onSuccess: invalidate });
}
