// The exceptions settings (settings.manage): when a shipment counts as stalled, and the daily
// digest of open exceptions.
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { ShipmentExceptionService } from '@/gen/logistics/v1/shipment_exception_service_pb';

export function useExceptionSettings() {
  return useQuery(ShipmentExceptionService.method.getExceptionSettings, {});
}

/** Saves the settings; the settings (and the queue, whose stalled shipments they decide) load
 * again. */
export function useUpdateExceptionSettings() {
  const queryClient = useQueryClient();
  return useMutation(ShipmentExceptionService.method.updateExceptionSettings, {
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: ShipmentExceptionService, cardinality: undefined }) }),
  }).mutateAsync;
}
