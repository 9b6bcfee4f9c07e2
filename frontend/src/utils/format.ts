// Pure formatting helpers shared by every feature. No React, no network.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Shown where a value is missing. */
export const EMPTY_VALUE = '—';

const groupDigits = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0, useGrouping: true });

/** 125000n → "$1,250.00". Exact for any int64: never goes through a binary float. */
export function formatCents(cents: bigint | number): string {
  const value = typeof cents === 'bigint' ? cents : BigInt(Math.trunc(cents));
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const dollars = abs / 100n;
  const rest = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}$${groupDigits.format(dollars)}.${rest}`;
}

/** "in_transit" → "in transit": underscores are shown as spaces. */
export function humanize(value: string): string {
  return value.replace(/_+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** "bank_transfer" → "Bank Transfer". */
export function titleCase(value: string): string {
  return humanize(value)
    .toLowerCase()
    .replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}

/** The tracking number as the visitor meant it: surrounding white space removed. */
export function trimTrackingNumber(raw: string): string {
  return raw.trim();
}

/** (2026, 12, 1) → "Dec 1, 2026"; an unset date (zeros) → "—". */
export function formatDateParts(year: number, month: number, day: number): string {
  if (!year || month < 1 || month > 12 || !day) return EMPTY_VALUE;
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}

/** "2026-11-20" → "Nov 20, 2026"; anything else is returned unchanged ("—" when empty). */
export function formatIsoDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return value.trim() || EMPTY_VALUE;
  return formatDateParts(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** (8, 30) → "08:30". */
export function formatTimeOfDay(hours: number, minutes: number): string {
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return EMPTY_VALUE;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

/** "09:00:00" → "09:00"; anything else is returned unchanged ("—" when empty). */
export function formatClock(value: string): string {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value.trim());
  if (!match) return value.trim() || EMPTY_VALUE;
  return formatTimeOfDay(Number(match[1]), Number(match[2]));
}

/** 12.5 → "12.5", 1234.5678 → "1,234.57". */
export function formatDecimal(value: number, maxFractionDigits = 2): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: maxFractionDigits }).format(value);
}

/** 12.5 → "12.5 kg". */
export function formatKg(value: number): string {
  return `${formatDecimal(value)} kg`;
}

/** (50, 40, 30) → "50 × 40 × 30 cm". */
export function formatDimensionsCm(length: number, width: number, height: number): string {
  return `${formatDecimal(length)} × ${formatDecimal(width)} × ${formatDecimal(height)} cm`;
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A moment in the viewer's time zone, e.g. "Nov 23, 2026, 9:05 AM"; "—" when missing. */
export function formatDateTime(date: Date | undefined): string {
  return date && !Number.isNaN(date.getTime()) ? dateTimeFormat.format(date) : EMPTY_VALUE;
}
