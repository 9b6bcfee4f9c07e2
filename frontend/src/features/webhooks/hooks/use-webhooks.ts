// The webhook calls of the service the screen is given (the company's or a customer's own),
// through the app's one transport and QueryClient.
import { createConnectQueryKey, useInfiniteQuery, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { serverMessage } from '@/lib/rpc-errors';
import type { WebhookServiceDesc } from '../components/words';

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_HOURS = 24;

/** The endpoints (up to 100), with Refresh. */
export function useEndpoints(service: WebhookServiceDesc, failed: string) {
  const query = useQuery(service.method.listWebhookEndpoints, { pageSize: 100 });
  const { refetch } = query;
  const loading = query.isFetching;
  return {
    endpoints: query.data?.endpoints ?? [],
    loading,
    /** The server's refusal as it came: the page reads PERMISSION_DENIED as its own rule. */
    failure: query.error,
    // A new load hides the last failure until it fails too.
    error: query.error && !loading ? serverMessage(query.error, failed) : null,
    reload: () => void refetch(),
  };
}

/** An endpoint's deliveries, newest first: 20, more on request, and a reload. */
export function useDeliveries(service: WebhookServiceDesc, endpointId: string, failed: string) {
  const query = useInfiniteQuery(
    service.method.listWebhookDeliveries,
    { endpointId, pageSize: 20, pageToken: '' },
    { pageParamKey: 'pageToken', getNextPageParam: (page) => page.nextPageToken || undefined },
  );
  const { refetch, fetchNextPage } = query;
  const loading = query.isFetching;
  return {
    deliveries: query.data?.pages.flatMap((page) => page.deliveries) ?? [],
    loading,
    error: query.error && !loading ? serverMessage(query.error, failed) : null,
    hasMore: query.hasNextPage,
    reload: () => void refetch(),
    loadMore: () => void fetchNextPage(),
  };
}

/** After a change to an endpoint or a delivery, the endpoints and the deliveries shown load again. */
function useInvalidate(service: WebhookServiceDesc) {
  const queryClient = useQueryClient();
  return () =>
    void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: service, cardinality: undefined }) });
}

export function useCreateEndpoint(service: WebhookServiceDesc) {
  const onSuccess = useInvalidate(service);
  return useMutation(service.method.createWebhookEndpoint, { onSuccess }).mutateAsync;
}

export function useSetEndpointEnabled(service: WebhookServiceDesc) {
  const onSuccess = useInvalidate(service);
  const { mutateAsync } = useMutation(service.method.updateWebhookEndpoint, { onSuccess });
  return (id: string, enabled: boolean) => mutateAsync({ endpoint: { id, enabled }, updateMask: { paths: ['enabled'] } });
}

export function useDeleteEndpoint(service: WebhookServiceDesc) {
  const onSuccess = useInvalidate(service);
  const { mutateAsync } = useMutation(service.method.deleteWebhookEndpoint, { onSuccess });
  return (id: string) => mutateAsync({ id });
}

export function useRotateSecret(service: WebhookServiceDesc) {
  const onSuccess = useInvalidate(service);
  const { mutateAsync } = useMutation(service.method.rotateWebhookEndpointSecret, { onSuccess });
  return (id: string) => mutateAsync({ id, overlapSeconds: BigInt(ROTATION_OVERLAP_HOURS * 3600) });
}

export function useSendTestEvent(service: WebhookServiceDesc) {
  const onSuccess = useInvalidate(service);
  const { mutateAsync } = useMutation(service.method.sendTestWebhookEvent, { onSuccess });
  return (endpointId: string) => mutateAsync({ endpointId });
}

export function useResendDelivery(service: WebhookServiceDesc) {
  const onSuccess = useInvalidate(service);
  const { mutateAsync } = useMutation(service.method.resendWebhookDelivery, { onSuccess });
  return (id: string) => mutateAsync({ id });
}
