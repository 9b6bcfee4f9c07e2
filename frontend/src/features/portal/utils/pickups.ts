// The pickup pages' pure parts: the settings' rules as words, and the form's values as a request.
import type { PickupSettings } from '@/gen/logistics/v1/customer_pb';

const pad = (n: number) => String(n).padStart(2, '0');

/** "HH:MM" of the same-day cut-off, or null when same-day pickups are never possible. */
export function cutoffText(settings: PickupSettings): string | null {
  const cutoff = settings.sameDayCutoff;
  if (!cutoff || (cutoff.hours === 0 && cutoff.minutes === 0)) return null;
  return `${pad(cutoff.hours)}:${pad(cutoff.minutes)}`;
}

/** The closed weekdays (by name) then the closed dates, as one list in `locale`; empty if none. */
export function closedDaysText(settings: PickupSettings, locale: string): string {
  // 2024-01-01 was a Monday: weekday n (1..7) is 2024-01-0n.
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const parts = [
    ...[...settings.closedWeekdays].sort((a, b) => a - b).map((n) => weekday.format(Date.UTC(2024, 0, n))),
    ...settings.closedDates.map((d) => day.format(Date.UTC(d.year, d.month - 1, d.day))),
  ];
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(parts);
}

/** "YYYY-MM-DD" as the API's date. */
export function isoToDate(iso: string) {
  const [year, month, day] = iso.split('-').map(Number);
  return { year, month, day };
}

/** "HH:MM" as the API's time of day. */
export function clockToTime(clock: string) {
  const [hours, minutes] = clock.split(':').map(Number);
  return { hours, minutes };
}
