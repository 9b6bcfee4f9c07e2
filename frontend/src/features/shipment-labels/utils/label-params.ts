// The print page's address: which shipments (`ids`) and which layout (`format`). Pure.
import type { PrintFormat } from '@/config/routes';

/** The most shipments one print page loads (one GetShipment call each). */
export const MAX_PRINT_IDS = 100;

export const NO_IDS_MESSAGE = 'No shipments selected.';

export type ParsedIds = { ok: true; ids: string[] } | { ok: false; error: string };

/** `"a1, b2,,a1"` → `["a1", "b2"]`: split at commas, trimmed, empties and repeats dropped, in
 * order. No ids, or more than MAX_PRINT_IDS distinct ones, is an error to show. */
export function parseIds(raw: string | null): ParsedIds {
  const ids = [...new Set((raw ?? '').split(',').map((id) => id.trim()).filter(Boolean))];
  if (ids.length === 0) return { ok: false, error: NO_IDS_MESSAGE };
  if (ids.length > MAX_PRINT_IDS) {
    return {
      ok: false,
      error: `Too many shipments selected: ${ids.length}. At most ${MAX_PRINT_IDS} can be printed at once.`,
    };
  }
  return { ok: true, ids };
}

/** `"waybill"` → waybill; anything else (missing, misspelt) → the default, label. */
export function parseFormat(raw: string | null): PrintFormat {
  return raw?.trim().toLowerCase() === 'waybill' ? 'waybill' : 'label';
}

/** The public tracking page of a number on this site: what the QR code holds. */
export function trackingUrl(origin: string, trackingNumber: string): string {
  return `${origin}/track/${encodeURIComponent(trackingNumber)}`;
}
