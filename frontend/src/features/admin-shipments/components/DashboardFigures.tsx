import { Link } from 'react-router-dom';
import { AlertTriangle } from 'lucide-react';
import type { DailyShipmentCount } from '@/gen/logistics/v1/shipment_service_pb';
import { Spinner } from '@/components/ui/Spinner';
import { ADMIN_HOME_PATH } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { statusKey, statusLabel, statusTone } from '@/utils/shipment';
import { useShipmentStatistics } from '../api/shipments';
import './dashboard-figures.css';

const count = new Intl.NumberFormat('en-US');
const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

function day(d: DailyShipmentCount): string {
  const date = d.date;
  return date ? dayLabel.format(Date.UTC(date.year, date.month - 1, date.day)) : '';
}

/** The dashboard's figures: shipments per status and late ones (each a link into the list),
 * and 30 days of created and delivered as a small chart with its numbers in a table. */
export function DashboardFigures() {
  const { data: stats, error } = useShipmentStatistics();

  if (error) {
    return (
      <p className="field-error" role="alert">
        {serverMessage(error, 'Failed to load the figures')}
      </p>
    );
  }
  if (!stats) return <Spinner size="sm" label="Loading the figures…" />;
  return (
    <section className="dashboard-figures" aria-labelledby="figures-heading">
      <h2 id="figures-heading" className="visually-hidden">
        Figures
      </h2>
      <ul className="figure-cards">
        {stats.statusCounts.map((c) => (
          <li key={c.status}>
            <Link
              className={`figure-card tone-${statusTone(statusKey(c.status))}`}
              to={`${ADMIN_HOME_PATH}?status=${statusKey(c.status)}`}
            >
              <span className="figure-value">{count.format(c.count)}</span>
              <span className="figure-label">{titleCase(statusLabel(c.status))}</span>
            </Link>
          </li>
        ))}
        <li>
          <Link className="figure-card tone-red figure-late" to={`${ADMIN_HOME_PATH}?late=1`}>
            <span className="figure-value">{count.format(stats.late)}</span>
            <span className="figure-label">
              <AlertTriangle aria-hidden="true" size={14} /> Late
            </span>
          </Link>
        </li>
      </ul>
      <DailyChart days={stats.days} />
    </section>
  );
}

function titleCase(text: string): string {
  return text.replace(/(^|\s)\p{L}/gu, (m) => m.toUpperCase());
}

/** Created and delivered per day: bars for the eye, the same numbers in a table for everyone. */
function DailyChart({ days }: { days: readonly DailyShipmentCount[] }) {
  const max = Math.max(1, ...days.map((d) => Math.max(Number(d.created), Number(d.delivered))));
  const width = 300;
  const height = 80;
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(1, slot / 2 - 1);
  const created = days.reduce((sum, d) => sum + Number(d.created), 0);
  const delivered = days.reduce((sum, d) => sum + Number(d.delivered), 0);
  return (
    <figure className="daily-chart">
      <figcaption>
        Last 30 days: <strong>{count.format(created)}</strong> created,{' '}
        <strong>{count.format(delivered)}</strong> delivered
        <span className="chart-key">
          <span className="key-created" aria-hidden="true" /> created
          <span className="key-delivered" aria-hidden="true" /> delivered
        </span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {days.map((d, i) => {
          const c = (Number(d.created) / max) * (height - 2);
          const v = (Number(d.delivered) / max) * (height - 2);
          return (
            <g key={i}>
              <rect className="bar-created" x={i * slot} y={height - c} width={bar} height={c} />
              <rect className="bar-delivered" x={i * slot + bar + 1} y={height - v} width={bar} height={v} />
            </g>
          );
        })}
      </svg>
      <details className="chart-table">
        <summary>Numbers per day</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Created</th>
              <th scope="col">Delivered</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d, i) => (
              <tr key={i}>
                <th scope="row">{day(d)}</th>
                <td>{count.format(d.created)}</td>
                <td>{count.format(d.delivered)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
