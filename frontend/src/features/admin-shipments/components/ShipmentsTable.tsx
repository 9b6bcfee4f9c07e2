import { Eye, LoaderCircle, Pencil, Trash2 } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import '@/components/ui/data-table.css';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { EMPTY_VALUE, formatDateParts } from '@/utils/format';
import { statusKey } from '@/utils/shipment';

type ShipmentsTableProps = {
  shipments: readonly Shipment[];
  busy: boolean;
  deletingId: string | null;
  onView: (shipment: Shipment) => void;
  onEdit: (shipment: Shipment) => void;
  onDelete: (shipment: Shipment) => void;
};

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** When the shipment last changed, in the viewer's time zone: the date, the time under it. */
function UpdatedAt({ shipment }: { shipment: Shipment }) {
  if (!shipment.updateTime) return <>{EMPTY_VALUE}</>;
  const when = timestampDate(shipment.updateTime);
  return (
    <time dateTime={when.toISOString()}>
      <span className="updated-day">{dayFormat.format(when)}</span> <span className="updated-time">{timeFormat.format(when)}</span>
    </time>
  );
}

/** One row per shipment with View, Edit and Delete; on a phone each row is a card (data-table.css). */
export function ShipmentsTable({ shipments, busy, deletingId, onView, onEdit, onDelete }: ShipmentsTableProps) {
  return (
    <div className="table-cards">
      <div className="table-scroll" role="region" aria-label="Shipments" tabIndex={0}>
        <table className="data-table shipments-table" aria-busy={busy}>
          <thead>
            <tr>
              <th scope="col">Tracking Number</th>
              <th scope="col">Shipper</th>
              <th scope="col">Receiver</th>
              <th scope="col">Origin → Destination</th>
              <th scope="col">Status</th>
              <th scope="col">Expected Delivery</th>
              <th scope="col">Updated</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shipments.map((s) => {
              const date = s.expectedDeliveryDate;
              return (
                <tr key={s.id} data-tracking-number={s.trackingNumber}>
                  <th scope="row" className="mono">
                    {s.trackingNumber}
                  </th>
                  <td data-label="Shipper">{s.shipper?.name || EMPTY_VALUE}</td>
                  <td data-label="Receiver">{s.receiver?.name || EMPTY_VALUE}</td>
                  <td className="route-cell" data-label="Route">
                    {/* One element: the cell is a label and value grid on a phone. */}
                    <span>
                      {s.origin || EMPTY_VALUE} <span aria-hidden="true">→</span>
                      <span className="visually-hidden">to</span> {s.destination || EMPTY_VALUE}
                    </span>
                  </td>
                  <td className="card-aside">
                    <StatusBadge statusKey={statusKey(s.status)} />
                  </td>
                  <td data-label="Expected Delivery">{date ? formatDateParts(date.year, date.month, date.day) : EMPTY_VALUE}</td>
                  <td className="updated-cell" data-label="Updated">
                    <UpdatedAt shipment={s} />
                  </td>
                  <td className="card-actions">
                    <div className="row-actions">
                      <button
                        type="button"
                        className="icon-button row-action"
                        aria-label={`View shipment ${s.trackingNumber}`}
                        title="View"
                        onClick={() => onView(s)}
                      >
                        <Eye aria-hidden="true" size={18} />
                        <span className="card-action-text">View</span>
                      </button>
                      <button
                        type="button"
                        className="icon-button row-action"
                        aria-label={`Edit shipment ${s.trackingNumber}`}
                        title="Edit"
                        onClick={() => onEdit(s)}
                      >
                        <Pencil aria-hidden="true" size={18} />
                        <span className="card-action-text">Edit</span>
                      </button>
                      <button
                        type="button"
                        className="icon-button row-action row-action-danger"
                        aria-label={`Delete shipment ${s.trackingNumber}`}
                        title={deletingId === s.id ? 'Deleting...' : 'Delete'}
                        aria-disabled={deletingId !== null || undefined}
                        onClick={() => onDelete(s)}
                      >
                        {deletingId === s.id ? (
                          <LoaderCircle className="icon-spin" aria-hidden="true" size={18} />
                        ) : (
                          <Trash2 aria-hidden="true" size={18} />
                        )}
                        <span className="card-action-text">Delete</span>
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
