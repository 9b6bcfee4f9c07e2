import './shipment.css';
import { humanize } from '@/utils/format';
import { statusTone } from '@/utils/shipment';

/** The coloured status pill; the text shows underscores as spaces. */
export function StatusBadge({ statusKey }: { statusKey: string }) {
  return (
    <span className={`status-badge status-${statusTone(statusKey)}`} data-status={statusKey}>
      <span className="status-dot" aria-hidden="true" />
      {humanize(statusKey)}
    </span>
  );
}
