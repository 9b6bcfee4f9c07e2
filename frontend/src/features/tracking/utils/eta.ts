// Where a shipment stands against its expected delivery date, in the page's language. No React,
// no network.
import type { Date as ProtoDate } from '@/gen/logistics/v1/shipment_pb';
import { i18n } from '@/lib/i18n';

export type Eta =
  /** No expected delivery date was recorded. */
  | { kind: 'unknown' }
  | { kind: 'delivered' }
  /** The date is still ahead. */
  | { kind: 'on-time' }
  | { kind: 'today' }
  /** The date has passed and the shipment is not delivered. */
  | { kind: 'late'; days: number };

const DAY_MS = 86_400_000;

/** The day ("YYYY-MM-DD" or a proto Date) as a count of days since 1970-01-01; NaN when invalid. */
function dayNumber(day: string | ProtoDate): number {
  if (typeof day !== 'string') {
    return day.year && day.month && day.day ? Date.UTC(day.year, day.month - 1, day.day) / DAY_MS : Number.NaN;
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : Number.NaN;
}

/** The expected date against today ("YYYY-MM-DD", the company's day). */
export function etaStatus(expected: ProtoDate | undefined, today: string, delivered: boolean): Eta {
  if (delivered) return { kind: 'delivered' };
  const lateBy = expected ? dayNumber(today) - dayNumber(expected) : Number.NaN;
  if (Number.isNaN(lateBy)) return { kind: 'unknown' };
  if (lateBy > 0) return { kind: 'late', days: lateBy };
  return lateBy === 0 ? { kind: 'today' } : { kind: 'on-time' };
}

/** "on time", "today", "late by 1 day", "late by 3 days", "delivered"; "" when unknown. */
export function etaLabel(eta: Eta): string {
  switch (eta.kind) {
    case 'on-time':
      return i18n._('track.eta.on_time');
    case 'today':
      return i18n._('track.eta.today');
    case 'late':
      return i18n._('track.eta.late', { days: eta.days });
    case 'delivered':
      return i18n._('track.eta.delivered');
    default:
      return '';
  }
}
