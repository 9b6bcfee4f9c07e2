// The admin's settings of the tracking e-mails (through the gateway, with the session cookie).
import type { MessageInitShape } from '@bufbuild/protobuf';
import { createConnectQueryKey, useQuery, useTransport } from '@connectrpc/connect-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TrackingEmailSettings, TrackingEmailSettingsSchema } from '@/gen/logistics/v1/shipment_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { shipmentClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

export function useTrackingEmailSettings() {
  return useQuery(ShipmentService.method.getTrackingEmailSettings, {});
}

/** Saves the settings; what the server kept becomes what the page shows. */
export function useUpdateTrackingEmailSettings() {
  const queryClient = useQueryClient();
  const transport = useTransport();
  return useMutation({
    mutationFn: (settings: MessageInitShape<typeof TrackingEmailSettingsSchema>): Promise<TrackingEmailSettings> =>
      shipmentClient.updateTrackingEmailSettings({ settings }, { timeoutMs: TIMEOUT_MS }),
    onSuccess: (saved) =>
      queryClient.setQueryData(
        createConnectQueryKey({
          schema: ShipmentService.method.getTrackingEmailSettings,
          input: {},
          transport,
          cardinality: 'finite',
        }),
        saved,
      ),
  }).mutateAsync;
}
