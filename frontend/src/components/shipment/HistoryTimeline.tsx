import './shipment.css';
import { MapPin } from 'lucide-react';
import type { HistoryEntry } from '@/gen/logistics/v1/shipment_pb';
import { useMessages } from '@/lib/i18n';
import { formatClock, formatIsoDate } from '@/utils/format';
import { historyByDay, statusKey } from '@/utils/shipment';
import { failedAttemptText, remarksText } from '@/utils/history-remarks';
import { StatusBadge } from './StatusBadge';

type HistoryTimelineProps = {
  history: readonly HistoryEntry[];
  /** The level of each day's heading: one below the heading of the section it is in. */
  dayHeading?: 'h3' | 'h4';
  /** On paper, only this many newest entries, and how many earlier ones were left out. */
  printLatest?: number;
};

/** The shipment's journey as a vertical timeline, grouped by day (in the company's time zone),
 * newest day and newest entry first; each entry with its local time, status, place, a failed
 * delivery attempt and remarks. */
export function HistoryTimeline({ history, dayHeading: DayHeading = 'h3', printLatest = Infinity }: HistoryTimelineProps) {
  const t = useMessages('track');
  if (history.length === 0) {
    return <p className="muted">{t('track.history.empty')}</p>;
  }
  const days = historyByDay(history);
  // The place of each day's first entry among all entries, newest first.
  const firsts = days.map((_, i) => days.slice(0, i).reduce((n, d) => n + d.entries.length, 0));
  const omitted = Math.max(0, history.length - printLatest);
  return (
    <>
      <ol className="history-days">
        {days.map((day, dayIndex) => (
          <li key={day.localDate || dayIndex} className={`history-day${firsts[dayIndex] >= printLatest ? ' print-omit' : ''}`}>
            <DayHeading className="history-day-title">
              <time dateTime={day.localDate}>{formatIsoDate(day.localDate)}</time>
            </DayHeading>
            <ol className="history-events">
              {day.entries.map((entry, index) => (
                <li
                  key={index}
                  className={`history-event${dayIndex === 0 && index === 0 ? ' is-latest' : ''}${firsts[dayIndex] + index >= printLatest ? ' print-omit' : ''}`}
                  data-testid="history-event"
                >
                  <span className="history-marker" aria-hidden="true" />
                  <div className="history-head">
                    <time className="history-time" dateTime={`${entry.localDate}T${entry.localTime}`}>
                      {formatClock(entry.localTime)}
                    </time>
                    <StatusBadge statusKey={statusKey(entry.status)} />
                  </div>
                  <p className="history-location">
                    <MapPin aria-hidden="true" size={16} />
                    <bdi>{entry.location}</bdi>
                  </p>
                  {failedAttemptText(entry.failedAttempt, t) && <p className="history-failed">{failedAttemptText(entry.failedAttempt, t)}</p>}
                  {entry.remarks && (
                    <p className="history-remarks">
                      <bdi>{remarksText(entry.remarks, t)}</bdi>
                    </p>
                  )}
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
      {omitted > 0 && <p className="history-earlier print-only">{t('track.history.print_earlier', { count: omitted })}</p>}
    </>
  );
}
