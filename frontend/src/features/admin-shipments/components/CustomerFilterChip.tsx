import { X } from 'lucide-react';
import { useCustomerName } from '../api/shipments';

/** "Customer: {name}" above the list while it shows one customer's shipments, with a button to
 * show everyone's again. */
export function CustomerFilterChip({ id, canRead, onRemove }: { id: string; canRead: boolean; onRemove: () => void }) {
  const name = useCustomerName(id, canRead) ?? id;
  return (
    <div className="filter-chips" role="group" aria-label="Active filters">
      <span className="filter-chip">
        <span>
          Customer: <bdi>{name}</bdi>
        </span>
        <button type="button" className="filter-chip-remove" aria-label={`Remove the filter Customer: ${name}`} onClick={onRemove}>
          <X aria-hidden="true" size={16} />
        </button>
      </span>
    </div>
  );
}
