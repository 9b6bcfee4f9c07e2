// What a scanned label says: the Code 128 holds the tracking number, the QR code the tracking
// page's address (`…/track/PSE…`, perhaps under a language prefix). Pure: no DOM.
import { normaliseTrackingNumber } from '@/utils/format';

const TRACKING_NUMBER = /^PSE\d{9}$/;

/** The tracking number a scanned or typed text names, or null. */
export function trackingNumberOf(text: string): string | null {
  const trimmed = text.trim();
  const fromLink = /\/track\/([^/?#\s]+)/i.exec(trimmed);
  const candidate = normaliseTrackingNumber(fromLink ? decodeURIComponent(fromLink[1]) : trimmed);
  return TRACKING_NUMBER.test(candidate) ? candidate : null;
}
