import './shipment.css';
import { useMessages } from '@/lib/i18n';
import { titleCase } from '@/utils/format';
import { statusLabelIdOfKey, statusTone } from '@/utils/shipment';

/** The coloured status pill, with the status's label ("In Transit"). */
export function StatusBadge({ statusKey }: { statusKey: string }) {
  const t = useMessages('track');
  const labelId = statusLabelIdOfKey(statusKey);
  return (
    <span className={`status-badge status-${statusTone(statusKey)}`} data-status={statusKey}>
      <span className="status-dot" aria-hidden="true" />
      {labelId ? t(labelId) : titleCase(statusKey)}
    </span>
  );
}
