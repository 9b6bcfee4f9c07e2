import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import { AlertCircle, ChevronLeft, ChevronRight, Plus, RefreshCw, Search } from 'lucide-react';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { Spinner } from '@/components/ui/Spinner';
import { toast } from '@/lib/toast';
import { STATUS_OPTIONS } from '@/utils/shipment';
import { PAGE_SIZE, deleteShipment } from '../api/shipments';
import { useShipmentList } from '../hooks/use-shipment-list';
import { CreateShipmentModal } from './CreateShipmentModal';
import { CreatedShipmentPanel } from './CreatedShipmentPanel';
import { EditShipmentModal } from './EditShipmentModal';
import { ShipmentDetailsDialog } from './ShipmentDetailsDialog';
import { ShipmentsTable } from './ShipmentsTable';
import { UpdateTrackingModal } from './UpdateTrackingModal';

/** The most matches the server counts exactly (ListShipmentsResponse.total_size). */
const MAX_COUNTED = 1_000;

const DELETE_CONFIRM_MESSAGE = 'Are you sure you want to delete this shipment?';
const DELETE_SUCCESS_MESSAGE = 'Shipment deleted successfully';
const DELETE_FAILURE_MESSAGE = 'Failed to delete shipment';

type Dialog =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'view'; shipment: Shipment }
  | { kind: 'edit'; shipment: Shipment }
  | { kind: 'track'; shipment: Shipment };

/** What the signed-in user may do here (their permissions); the server checks each call. */
export type ShipmentActions = {
  create: boolean;
  edit: boolean;
  track: boolean;
  remove: boolean;
  labels: boolean;
  dashboard: boolean;
  activity: boolean;
};

/** The shipments part of the dashboard: search, filter, refresh, the list and its dialogs. */
export function ShipmentsDashboard({ actions, allowed }: { actions?: ReactNode; allowed: ShipmentActions }) {
  const list = useShipmentList();
  const { state } = list;
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [created, setCreated] = useState<Shipment | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const deleting = useRef(false);

  const closeDialog = () => setDialog({ kind: 'none' });

  const onDelete = async (shipment: Shipment) => {
    // One delete at a time: a second click while one runs is ignored.
    if (deleting.current) return;
    if (!window.confirm(DELETE_CONFIRM_MESSAGE)) return;
    deleting.current = true;
    setDeletingId(shipment.id);
    try {
      await deleteShipment(shipment.id);
      toast.success(DELETE_SUCCESS_MESSAGE);
      if (created?.id === shipment.id) setCreated(null);
      list.reload();
    } catch {
      toast.error(DELETE_FAILURE_MESSAGE);
    } finally {
      deleting.current = false;
      setDeletingId(null);
    }
  };

  const total = state.totalSize;
  // The server counts up to 1,000; 1,001 means more.
  const totalText = total > MAX_COUNTED ? `${MAX_COUNTED.toLocaleString('en-US')}+` : total.toLocaleString('en-US');
  const first = state.pageIndex * PAGE_SIZE + 1;
  const last = state.pageIndex * PAGE_SIZE + state.shipments.length;

  return (
    <div className="admin-shipments">
      <div className="admin-page-head">
        <h1>Shipments</h1>
        <div className="admin-page-actions">
          {actions}
          {allowed.create && (
            <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'create' })}>
              <Plus aria-hidden="true" size={18} />
              Create Shipment
            </button>
          )}
        </div>
      </div>

      {created && <CreatedShipmentPanel shipment={created} onDismiss={() => setCreated(null)} />}

      <div className="admin-toolbar" role="search">
        <div className="field toolbar-search">
          <label htmlFor="shipment-search" className="field-label">
            Search
          </label>
          <div className="input-with-icon">
            <Search className="input-icon" aria-hidden="true" size={18} />
            <input
              id="shipment-search"
              type="search"
              className="input"
              placeholder="Tracking number, name, place or status"
              maxLength={200}
              autoComplete="off"
              value={list.search}
              onChange={(event) => list.setSearch(event.target.value)}
            />
          </div>
        </div>
        <div className="field toolbar-status">
          <label htmlFor="shipment-status" className="field-label">
            Status
          </label>
          <select
            id="shipment-status"
            className="select"
            value={list.status}
            onChange={(event) => list.setStatus(event.target.value)}
          >
            <option value="all">All</option>
            {STATUS_OPTIONS.map((option) => (
              <option key={option.key} value={option.key}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="btn btn-outline toolbar-refresh"
          onClick={list.refresh}
          disabled={state.loading}
          aria-busy={state.loading}
        >
          <RefreshCw className={state.loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
          Refresh
        </button>
      </div>

      <div className="list-summary" aria-live="polite">
        <p className="muted" data-testid="shipment-count">
          {total === 1 ? '1 shipment' : `${totalText} shipments`}
          {state.shipments.length > 0 && total > state.shipments.length && (
            <span>
              {' '}
              · showing {first}–{last}
            </span>
          )}
        </p>
        {state.loading && <Spinner size="sm" label="Loading shipments…" />}
      </div>

      {state.error && (
        <div className="alert alert-error" role="alert">
          <AlertCircle aria-hidden="true" size={22} />
          <p>
            Failed to load data. {state.error !== 'Failed to load data' ? `${state.error}. ` : ''}Use Refresh to try
            again.
          </p>
        </div>
      )}

      {state.shipments.length > 0 ? (
        <ShipmentsTable
          shipments={state.shipments}
          busy={state.loading}
          deletingId={deletingId}
          onView={(shipment) => setDialog({ kind: 'view', shipment })}
          onEdit={allowed.edit ? (shipment) => setDialog({ kind: 'edit', shipment }) : undefined}
          onTrack={
            allowed.track && !allowed.edit ? (shipment) => setDialog({ kind: 'track', shipment }) : undefined
          }
          onDelete={allowed.remove ? onDelete : undefined}
          labels={allowed.labels}
        />
      ) : (
        !state.loading &&
        !state.error && <p className="empty-state">No shipments match. Change the search or the status filter.</p>
      )}

      <nav className="pagination" aria-label="Pages">
        <button type="button" className="btn btn-outline btn-sm" onClick={list.previous} disabled={!state.hasPrevious || state.loading}>
          <ChevronLeft aria-hidden="true" size={16} />
          Previous
        </button>
        <span className="muted">Page {state.pageIndex + 1}</span>
        <button type="button" className="btn btn-outline btn-sm" onClick={list.next} disabled={!state.hasNext}>
          Next
          <ChevronRight aria-hidden="true" size={16} />
        </button>
      </nav>

      {dialog.kind === 'create' && (
        <CreateShipmentModal
          onClose={closeDialog}
          onCreated={(shipment) => {
            closeDialog();
            setCreated(shipment);
            list.reloadFirstPage();
          }}
        />
      )}
      {dialog.kind === 'view' && (
        <ShipmentDetailsDialog
          shipment={dialog.shipment}
          onClose={closeDialog}
          showActivity={allowed.activity}
          showLabels={allowed.labels}
        />
      )}
      {dialog.kind === 'track' && (
        <UpdateTrackingModal
          shipment={dialog.shipment}
          onClose={closeDialog}
          onUpdated={() => {
            closeDialog();
            list.reload();
          }}
        />
      )}
      {dialog.kind === 'edit' && (
        <EditShipmentModal
          shipment={dialog.shipment}
          onClose={closeDialog}
          onUpdated={() => {
            closeDialog();
            list.reload();
          }}
        />
      )}
    </div>
  );
}
