// The history remarks the product writes itself, in the reader's language; what staff typed
// stays as they typed it.
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
