import './shipment.css';
import { statusLabelOfKey, statusTone } from '@/utils/shipment';

/** The coloured status pill, with the status's label ("In Transit"). */
export function StatusBadge({ statusKey }: { statusKey: string }) {
  return (
    <span className={`status-badge status-${statusTone(statusKey)}`} data-status={statusKey}>
      <span className="status-dot" aria-hidden="true" />
      {statusLabelOfKey(statusKey)}
    </span>
  );
}
