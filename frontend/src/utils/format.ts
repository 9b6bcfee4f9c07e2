// Pure formatting helpers shared by every feature, in the page's language (Intl). No React, no
// network.
import { i18n } from '@lingui/core';
import { DEFAULT_LANGUAGE, languageByCode, type LanguageCode } from '@/config/languages';

/** Shown where a value is missing. */
export const EMPTY_VALUE = '—';

/** The Intl locale of `language`, by default the page's (US English in the admin area and tests). */
function intlLocale(language?: LanguageCode): string {
  return languageByCode(language ?? ((i18n.locale || DEFAULT_LANGUAGE) as LanguageCode)).locale;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${intlLocale()} ${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(intlLocale(), options)));
  return format;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(options: Intl.DateTimeFormatOptions, language?: LanguageCode): Intl.DateTimeFormat {
  const key = `${intlLocale(language)} ${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(intlLocale(language), options)));
  return format;
}

/** 125000n → "$1,250.00" in `currency` (ISO 4217; the company's is `company.currency`): an
 * amount in the currency's minor unit (cents; yen have none, dinars have thousandths). Exact
 * for any int64: the amount reaches Intl as a decimal string, never as a binary float. */
export function formatCents(cents: bigint | number, currency = 'USD'): string {
  const format = numberFormat({ style: 'currency', currency });
  const digits = BigInt(format.resolvedOptions().maximumFractionDigits ?? 2);
  const value = typeof cents === 'bigint' ? cents : BigInt(Math.trunc(cents));
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** digits;
  const fraction = digits > 0n ? `.${(abs % scale).toString().padStart(Number(digits), '0')}` : '';
  const decimal = `${negative ? '-' : ''}${abs / scale}${fraction}`;
  // Intl formats a decimal string exactly; the DOM typings only know numbers.
  return format.format(decimal as unknown as number);
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

/** The tracking number as the visitor meant it: white space and dashes anywhere, punctuation
 * around it and letter case forgiven (`pse 3136 81562.` → `PSE313681562`), as the server's
 * TrackingNumber::parse does. */
export function normaliseTrackingNumber(raw: string): string {
  return raw
    .replace(/[\s-]/gu, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .toUpperCase();
}

/** (2026, 12, 1) → "Dec 1, 2026"; an unset date (zeros) → "—". */
export function formatDateParts(year: number, month: number, day: number): string {
  if (!year || month < 1 || month > 12 || !day) return EMPTY_VALUE;
  return dateFormat({ year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(Date.UTC(year, month - 1, day));
}

/** "2026-11-20" → "Nov 20, 2026"; anything else is returned unchanged ("—" when empty). */
export function formatIsoDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return value.trim() || EMPTY_VALUE;
  return formatDateParts(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** (8, 30) → "8:30 AM" in English, "8:30" in Spanish: the clock of the page's language, the
 * same one formatDateTime uses, so one page never mixes "9:18 PM" and "21:18". */
export function formatTimeOfDay(hours: number, minutes: number): string {
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return EMPTY_VALUE;
  return dateFormat({ hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, hours, minutes));
}

/** "09:00:00" → "9:00 AM"; anything else is returned unchanged ("—" when empty). */
export function formatClock(value: string): string {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value.trim());
  if (!match) return value.trim() || EMPTY_VALUE;
  return formatTimeOfDay(Number(match[1]), Number(match[2]));
}

/** 12.5 → "12.5", 1234.5678 → "1,234.57"; (4, 1, 1) → "4.0". */
export function formatDecimal(value: number, maxFractionDigits = 2, minFractionDigits = 0): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return numberFormat({ maximumFractionDigits: maxFractionDigits, minimumFractionDigits: minFractionDigits }).format(value);
}

/** 12.5 → "12.5 kg". */
export function formatKg(value: number): string {
  if (!Number.isFinite(value)) return EMPTY_VALUE;
  return numberFormat({ style: 'unit', unit: 'kilogram', maximumFractionDigits: 2 }).format(value);
}

/** (50, 40, 30) → "50 × 40 × 30 cm". */
export function formatDimensionsCm(length: number, width: number, height: number): string {
  return `${formatDecimal(length)} × ${formatDecimal(width)} × ${formatDecimal(height)} cm`;
}

/** A moment in the viewer's time zone, e.g. "Nov 23, 2026, 9:05 AM", in the page's language or
 * `language`; "—" when missing. */
export function formatDateTime(date: Date | undefined, language?: LanguageCode): string {
  return date && !Number.isNaN(date.getTime())
    ? dateFormat({ dateStyle: 'medium', timeStyle: 'short' }, language).format(date)
    : EMPTY_VALUE;
}

/** A "YYYY-MM-DD" day in full, e.g. "November 22, 2026". */
export function formatLongDate(isoDay: string): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return dateFormat({ year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(date);
}
