// Pure mapping from the Shipment message to what the track result shows.
import { ConnectError, Code } from '@connectrpc/connect';

export {
  historyNewestFirst,
  paymentModeLabel,
  shipmentModeIcon,
  shipmentModeLabel,
  shipmentTypeLabel,
  statusKey,
  statusLabel,
  statusTone,
  totalWeightKg,
  type BadgeTone,
  type ModeIcon,
} from '@/utils/shipment';

export const NOT_FOUND_MESSAGE = 'Shipment not found. Please check your tracking number and try again.';
export const EMPTY_INPUT_MESSAGE = 'Please enter a tracking number.';
export const COPIED_MESSAGE = 'Tracking number copied to clipboard!';

/**
 * What the visitor reads when a lookup fails: the spec's not-found sentence for every failure,
 * except a rate limit, where the server's own sentence says when to try again.
 */
export function trackingErrorMessage(error: unknown): string {
  const err = ConnectError.from(error);
  if (err.code === Code.ResourceExhausted && err.rawMessage.trim()) {
    return err.rawMessage;
  }
  return NOT_FOUND_MESSAGE;
}
