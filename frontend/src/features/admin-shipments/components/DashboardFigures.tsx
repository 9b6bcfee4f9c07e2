import { Link } from 'react-router-dom';
import { AlertTriangle } from 'lucide-react';
import type { DailyShipmentCount } from '@/gen/logistics/v1/shipment_service_pb';
import { Spinner } from '@/components/ui/Spinner';
import { ADMIN_HOME_PATH } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { statusKey, statusLabel, statusTone } from '@/utils/shipment';
import { useShipmentStatistics } from '../api/shipments';
import { chartTicks } from '../utils/chart-ticks';
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

/** Created and delivered per day: bars with a y-axis and a date every week for the eye, the same
 * numbers in a table for everyone. */
function DailyChart({ days }: { days: readonly DailyShipmentCount[] }) {
  const ticks = chartTicks(Math.max(...days.map((d) => Math.max(Number(d.created), Number(d.delivered)))));
  const top = ticks[ticks.length - 1];
  const width = 300;
  const height = 80;
  const slot = width / Math.max(1, days.length);
  const bar = Math.max(1, slot / 2 - 1);
  const created = days.reduce((sum, d) => sum + Number(d.created), 0);
  const delivered = days.reduce((sum, d) => sum + Number(d.delivered), 0);
  // A date under the last day and every seventh before it.
  const dated = days.map((_, i) => (days.length - 1 - i) % 7 === 0);
  return (
    <figure className="daily-chart">
      <figcaption>
        <span>
          Last 30 days: <strong>{count.format(created)}</strong> created, <strong>{count.format(delivered)}</strong> delivered
        </span>
        <span className="chart-key" aria-hidden="true">
          <span className="key-item">
            <span className="key-created" /> created
          </span>
          <span className="key-item">
            <span className="key-delivered" /> delivered
          </span>
        </span>
      </figcaption>
      {/* The axes repeat the table below, for the eye only. */}
      <div className="chart-plot" aria-hidden="true">
        <div className="chart-y">
          {/* Unseen, in the flow: the axis is as wide as its widest number. */}
          <span className="chart-y-size">{count.format(top)}</span>
          {ticks.map((tick) => (
            <span key={tick} className="chart-tick" style={{ bottom: `${(tick / top) * 100}%` }}>
              {count.format(tick)}
            </span>
          ))}
        </div>
        <svg viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" focusable="false">
          {ticks.map((tick) => (
            <line key={tick} className="chart-grid" x1={0} x2={width} y1={height - (tick / top) * height} y2={height - (tick / top) * height} />
          ))}
          {days.map((d, i) => {
            const c = (Number(d.created) / top) * height;
            const v = (Number(d.delivered) / top) * height;
            return (
              <g key={i}>
                <rect className="bar-created" x={i * slot} y={height - c} width={bar} height={c} />
                <rect className="bar-delivered" x={i * slot + bar + 1} y={height - v} width={bar} height={v} />
              </g>
            );
          })}
        </svg>
        <div className="chart-x">
          {days.map((d, i) =>
            dated[i] ? (
              <span key={i} className="chart-date" style={{ left: `${((i + 0.5) / days.length) * 100}%` }}>
                {day(d)}
              </span>
            ) : null,
          )}
        </div>
      </div>
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
