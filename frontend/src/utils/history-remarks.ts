// The history remarks the product writes itself, in the reader's language; what staff typed
// stays as they typed it.
import type { DeliveryAttemptFailure } from '@/gen/logistics/v1/shipment_pb';
import type { Translate } from '@/lib/i18n';

/** Each remark the shipments service writes (services/shipments/src/domain.rs), by its
 * message id in the 'track' catalogue. */
const PRODUCT_REMARKS: Readonly<Record<string, string>> = {
  'Shipment created': 'track.history.remark.created',
};

/** The remarks as the reader should see them. */
export function remarksText(remarks: string, t: Translate): string {
  const id = PRODUCT_REMARKS[remarks];
  return id ? t(id) : remarks;
}

/** Each DeliveryAttemptFailure (nobody home, refused, address problem) by its message id. */
const FAILED_ATTEMPTS = ['track.history.failed.nobody_home', 'track.history.failed.refused', 'track.history.failed.address'];

/** "Delivery attempt failed: nobody home"; '' when the entry records no failed attempt. */
export function failedAttemptText(failure: DeliveryAttemptFailure, t: Translate): string {
  const id = FAILED_ATTEMPTS[failure - 1];
  return id ? t(id) : '';
}
