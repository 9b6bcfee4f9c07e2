import { createConnectQueryKey, useInfiniteQuery, useQuery } from '@connectrpc/connect-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WebhookService } from '@/gen/logistics/v1/webhook_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import {
  createEndpoint,
  deleteEndpoint,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
} from '../api/webhooks';

/** The endpoints (up to 100), with Refresh. */
export function useEndpoints() {
  const query = useQuery(WebhookService.method.listWebhookEndpoints, { pageSize: 100 });
  const { refetch } = query;
  const loading = query.isFetching;
  return {
    endpoints: query.data?.endpoints ?? [],
    loading,
    // A new load hides the last failure until it fails too.
    error: query.error && !loading ? serverMessage(query.error, 'Failed to load webhook endpoints') : null,
    reload: () => void refetch(),
  };
}

/** An endpoint's deliveries, newest first: 20, more on request, and a reload. */
export function useDeliveries(endpointId: string) {
  const query = useInfiniteQuery(
    WebhookService.method.listWebhookDeliveries,
    { endpointId, pageSize: 20, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined },
  );
  const { refetch, fetchNextPage } = query;
  const loading = query.isFetching;
  return {
    deliveries: query.data?.pages.flatMap((page) => page.deliveries) ?? [],
    loading,
    error: query.error && !loading ? serverMessage(query.error, 'Failed to load deliveries') : null,
    hasMore: query.hasNextPage,
    reload: () => void refetch(),
    loadMore: () => void fetchNextPage(),
  };
}

/** A change to an endpoint or a delivery: the endpoints and the deliveries shown load again. */
function useWebhooksMutation<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: WebhookService, cardinality: undefined }),
      }),
  }).mutateAsync;
}

export const useCreateEndpoint = () => useWebhooksMutation(createEndpoint);
export const useDeleteEndpoint = () => useWebhooksMutation(deleteEndpoint);
export const useRotateSecret = () => useWebhooksMutation(rotateSecret);
export const useSendTestEvent = () => useWebhooksMutation(sendTestEvent);
export const useResendDelivery = () => useWebhooksMutation(resendDelivery);
export const useSetEndpointEnabled = () =>
  useWebhooksMutation(({ id, enabled }: { id: string; enabled: boolean }) => setEndpointEnabled(id, enabled));
