// The admin's settings of the tracking e-mails (through the gateway, with the session cookie).
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { TrackingEmailSettings, TrackingEmailSettingsSchema } from '@/gen/logistics/v1/shipment_pb';
import { shipmentClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

export function getTrackingEmailSettings(signal?: AbortSignal): Promise<TrackingEmailSettings> {
  return shipmentClient.getTrackingEmailSettings({}, { signal, timeoutMs: TIMEOUT_MS });
}

export function updateTrackingEmailSettings(
  settings: MessageInitShape<typeof TrackingEmailSettingsSchema>,
): Promise<TrackingEmailSettings> {
  return shipmentClient.updateTrackingEmailSettings({ settings }, { timeoutMs: TIMEOUT_MS });
}
