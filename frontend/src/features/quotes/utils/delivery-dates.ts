// A quote's delivery days in the page's language: "Tue, Dec 1", or "Tue, Dec 1 – Thu, Dec 3". Pure
// (Intl); apart from utils/format.ts, which the first page's chunk carries.
import { languageByCode } from '@/config/languages';
import { currentLanguage } from '@/lib/i18n';
import { EMPTY_VALUE } from '@/utils/format';

type DateParts = { year: number; month: number; day: number };

const formats = new Map<string, Intl.DateTimeFormat>();
function weekdayFormat(): Intl.DateTimeFormat {
  const locale = languageByCode(currentLanguage()).locale;
  let format = formats.get(locale);
  if (!format) {
    formats.set(locale, (format = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' })));
  }
  return format;
}

const utcDay = ({ year, month, day }: DateParts) => Date.UTC(year, month - 1, day);
const validDay = ({ year, month, day }: DateParts) => Boolean(year) && month >= 1 && month <= 12 && Boolean(day);

/** (2026, 12, 1) → "Tue, Dec 1" in the page's language; an unset date → "—". */
export function formatWeekdayDate(date: DateParts | undefined): string {
  return date && validDay(date) ? weekdayFormat().format(utcDay(date)) : EMPTY_VALUE;
}

/** Two days as a range in the page's language, "Tue, Dec 1 – Thu, Dec 3"; one day when equal. */
export function formatWeekdayRange(from: DateParts | undefined, to: DateParts | undefined): string {
  if (!from || !validDay(from)) return formatWeekdayDate(to);
  if (!to || !validDay(to) || utcDay(to) <= utcDay(from)) return formatWeekdayDate(from);
  return weekdayFormat().formatRange(utcDay(from), utcDay(to));
}
