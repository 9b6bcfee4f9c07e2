// The print page's address: which shipments (`ids`) and which layout (`format`). Pure.
import type { PrintFormat } from '@/config/routes';

/** The most shipments one print page loads (one GetShipment call each). */
export const MAX_PRINT_IDS = 100;

/** Why the address names no printable set: no ids, or more than MAX_PRINT_IDS (`count`). */
export type ParsedIds = { ok: true; ids: string[] } | { ok: false; count: number };

/** `"a1, b2,,a1"` → `["a1", "b2"]`: split at commas, trimmed, empties and repeats dropped, in
 * order. No ids, or more than MAX_PRINT_IDS distinct ones, is an error to show (with their count). */
export function parseIds(raw: string | null): ParsedIds {
  const ids = [...new Set((raw ?? '').split(',').map((id) => id.trim()).filter(Boolean))];
  if (ids.length === 0 || ids.length > MAX_PRINT_IDS) return { ok: false, count: ids.length };
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
