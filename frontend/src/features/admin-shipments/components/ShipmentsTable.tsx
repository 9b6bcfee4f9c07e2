import { Eye, LoaderCircle, MapPin, Pencil, Trash2 } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import '@/components/ui/data-table.css';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { Ltr } from '@/components/ui/Bidi';
import { EMPTY_VALUE, formatDateParts } from '@/utils/format';
import { statusKey } from '@/utils/shipment';
import { courierRound } from '../utils/shipment-fields';

type ShipmentsTableProps = {
  shipments: readonly Shipment[];
  busy: boolean;
  deletingId: string | null;
  onView: (shipment: Shipment) => void;
  /** Each action is offered only when given (the user may do it). */
  onEdit?: (shipment: Shipment) => void;
  onTrack?: (shipment: Shipment) => void;
  onDelete?: (shipment: Shipment) => void;
  /** Rows ticked for a bulk change or printing, when the user may do either. */
  selection?: { selected: ReadonlySet<string>; onChange: (next: Set<string>) => void };
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

/** One row per shipment with View, and where allowed Edit, Update Status and Delete, and a box
 * to tick it for a bulk change or printing; on a phone each row is a card (data-table.css). */
export function ShipmentsTable({
  shipments,
  busy,
  deletingId,
  onView,
  onEdit,
  onTrack,
  onDelete,
  selection,
}: ShipmentsTableProps) {
  const tick = (id: string, on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (on) next.add(id);
    else next.delete(id);
    selection.onChange(next);
  };
  return (
    <div className="table-cards">
      <div className="table-scroll" role="region" aria-label="Shipments" tabIndex={0}>
        <table className="data-table shipments-table" aria-busy={busy}>
          <thead>
            <tr>
              {selection && (
                <th scope="col" className="select-cell">
                  <span className="visually-hidden">Selected</span>
                </th>
              )}
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
                  {selection && (
                    <td className="select-cell">
                      <input
                        type="checkbox"
                        className="row-select"
                        aria-label={`Select shipment ${s.trackingNumber}`}
                        checked={selection.selected.has(s.id)}
                        onChange={(event) => tick(s.id, event.target.checked)}
                      />
                    </td>
                  )}
                  <th scope="row" className="mono">
                    <Ltr>{s.trackingNumber}</Ltr>
                  </th>
                  <td data-label="Shipper">{s.shipper?.name ? <bdi>{s.shipper.name}</bdi> : EMPTY_VALUE}</td>
                  <td data-label="Receiver">{s.receiver?.name ? <bdi>{s.receiver.name}</bdi> : EMPTY_VALUE}</td>
                  <td className="route-cell" data-label="Route">
                    {/* One element: the cell is a label and value grid on a phone. */}
                    <span>
                      <bdi>{s.origin || EMPTY_VALUE}</bdi> <span aria-hidden="true">→</span>
                      <span className="visually-hidden">to</span> <bdi>{s.destination || EMPTY_VALUE}</bdi>
                      {s.courierAssignment && (
                        // The courier whose round of a day it is on, under the route it takes.
                        <span className="row-courier">Courier: {courierRound(s.courierAssignment)}</span>
                      )}
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
                      {onEdit && (
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
                      )}
                      {onTrack && (
                        <button
                          type="button"
                          className="icon-button row-action"
                          aria-label={`Update status of shipment ${s.trackingNumber}`}
                          title="Update Status"
                          onClick={() => onTrack(s)}
                        >
                          <MapPin aria-hidden="true" size={18} />
                          <span className="card-action-text">Update Status</span>
                        </button>
                      )}
                      {onDelete && (
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
                      )}
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
