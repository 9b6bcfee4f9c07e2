import './shipment.css';
import { MapPin } from 'lucide-react';
import type { HistoryEntry } from '@/gen/logistics/v1/shipment_pb';
import { formatClock, formatIsoDate } from '@/utils/format';
import { historyNewestFirst, statusKey } from '@/utils/shipment';
import { StatusBadge } from './StatusBadge';

/** The shipment's journey, newest entry first. */
export function HistoryTimeline({ history }: { history: readonly HistoryEntry[] }) {
  if (history.length === 0) {
    return <p className="muted">No tracking events yet.</p>;
  }
  return (
    <ol className="history-timeline">
      {historyNewestFirst(history).map((entry, index) => (
        <li key={index} className={`history-timeline-item${index === 0 ? ' is-latest' : ''}`}>
          <span className="history-timeline-marker" aria-hidden="true" />
          <div className="history-timeline-body">
            <div className="history-timeline-head">
              <StatusBadge statusKey={statusKey(entry.status)} />
              <span className="history-timeline-when">
                <time dateTime={entry.localDate}>{formatIsoDate(entry.localDate)}</time>
                <span aria-hidden="true"> · </span>
                <span className="history-timeline-time">{formatClock(entry.localTime)}</span>
              </span>
            </div>
            <p className="history-timeline-location">
              <MapPin aria-hidden="true" size={16} />
              {entry.location}
            </p>
            {entry.remarks && <p className="history-timeline-remarks">{entry.remarks}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}
