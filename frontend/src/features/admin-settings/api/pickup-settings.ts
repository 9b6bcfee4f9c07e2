// The pickup settings (settings.manage): the same-day cut-off and the closed days.
import { createConnectQueryKey, useMutation, useQuery } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { PickupService } from '@/gen/logistics/v1/pickup_service_pb';

export function usePickupSettings() {
  return useQuery(PickupService.method.getPickupSettings, {});
}

/** Saves the settings; the settings load again, as saved. */
export function useUpdatePickupSettings() {
  const queryClient = useQueryClient();
  return useMutation(PickupService.method.updatePickupSettings, {
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: createConnectQueryKey({ schema: PickupService.method.getPickupSettings, cardinality: undefined }),
      }),
  }).mutateAsync;
}
