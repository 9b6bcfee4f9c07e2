// Pure mapping from the Shipment message to what the track result shows.
import { ConnectError, Code } from '@connectrpc/connect';
import { NOT_FOUND_MESSAGE } from './messages';

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
} from '@/utils/shipment';


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
