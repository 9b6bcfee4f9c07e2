import type { ReactNode } from 'react';
import { useRef, useState } from 'react';
import {
  AlertCircle,
  ChevronLeft,
  ChevronRight,
  Download,
  FileText,
  FileUp,
  ListChecks,
  Plus,
  RefreshCw,
  Search,
  Tag,
  UserRoundCheck,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { ADMIN_IMPORT_PATH, labelsPath } from '@/config/routes';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { FilterFold } from '@/components/admin/FilterFold';
import { ConfirmDialog } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { toast } from '@/lib/toast';
import { STATUS_OPTIONS } from '@/utils/shipment';
import { PAGE_SIZE, useDeleteShipment } from '../api/shipments';
import { useCsvExport } from '../hooks/use-csv-export';
import { useShipmentList } from '../hooks/use-shipment-list';
import { SORTS, activeFilterCount, exportHref } from '../utils/list-params';
import { AssignCourierModal } from './AssignCourierModal';
import { BulkUpdateModal, type Selection } from './BulkUpdateModal';
import { CreateShipmentModal } from './CreateShipmentModal';
import { CreatedShipmentPanel } from './CreatedShipmentPanel';
import { CustomerFilterChip } from './CustomerFilterChip';
import { DashboardFigures } from './DashboardFigures';
import { EditShipmentModal } from './EditShipmentModal';
import { ShipmentDetailsDialog } from './ShipmentDetailsDialog';
import { ShipmentsTable } from './ShipmentsTable';
import { UpdateTrackingModal } from './UpdateTrackingModal';
import './shipments.css';

/** The most matches the server counts exactly (ListShipmentsResponse.total_size). */
const MAX_COUNTED = 1_000;
/** The most shipments one bulk change may take (BatchUpdateShipmentTracking). */
const MAX_BATCH = 1_000;

const DELETE_CONFIRM_MESSAGE = 'Are you sure you want to delete this shipment?';
const DELETE_SUCCESS_MESSAGE = 'Shipment deleted successfully';
const DELETE_FAILURE_MESSAGE = 'Failed to delete shipment';

type Dialog =
  | { kind: 'none' }
  | { kind: 'create' }
  | { kind: 'view'; shipment: Shipment }
  | { kind: 'edit'; shipment: Shipment }
  | { kind: 'track'; shipment: Shipment }
  | { kind: 'bulk'; selection: Selection }
  | { kind: 'assign'; ids: string[] };

/** What the signed-in user may do here (their permissions); the server checks each call. */
export type ShipmentActions = {
  create: boolean;
  edit: boolean;
  track: boolean;
  remove: boolean;
  labels: boolean;
  dashboard: boolean;
  activity: boolean;
  export: boolean;
  import: boolean;
  /** Record a delivered shipment's proof of delivery. */
  recordProof: boolean;
  /** Read customers: pick a shipment's customer, see its name. */
  customers: boolean;
  /** Give shipments to a courier's round (pickups.manage, and users.read to pick the courier). */
  assign: boolean;
};

/** The shipments part of the dashboard: search, filter, refresh, the list and its dialogs. */
export function ShipmentsDashboard({
  actions,
  attention,
  allowed,
}: {
  actions?: ReactNode;
  /** Under the figures: the exceptions that need attention (another feature's, given by the route). */
  attention?: ReactNode;
  allowed: ShipmentActions;
}) {
  const list = useShipmentList();
  const exportCsv = useCsvExport();
  const { state } = list;
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const [created, setCreated] = useState<Shipment | null>(null);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const deleting = useRef(false);
  // The shipment the delete confirm asks about.
  const [toDelete, setToDelete] = useState<Shipment | null>(null);
  // Rows ticked for a bulk change, and whether "all that match" was chosen instead.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const deleteShipment = useDeleteShipment();
  const filterKey = JSON.stringify(list.filter);
  const [selectionFor, setSelectionFor] = useState(filterKey);
  if (selectionFor !== filterKey) {
    // Another filter: what was ticked is no longer what is shown.
    setSelectionFor(filterKey);
    setSelected(new Set());
    setAllMatching(false);
  }

  const closeDialog = () => setDialog({ kind: 'none' });

  // One delete at a time: a second click while one is asked about or runs is ignored.
  const onDelete = (shipment: Shipment) => {
    if (!deleting.current && !toDelete) setToDelete(shipment);
  };

  const confirmDelete = async (shipment: Shipment) => {
    deleting.current = true;
    setDeletingId(shipment.id);
    try {
      await deleteShipment(shipment.id);
      toast.success(DELETE_SUCCESS_MESSAGE);
      if (created?.id === shipment.id) setCreated(null);
    } catch {
      toast.error(DELETE_FAILURE_MESSAGE);
    } finally {
      deleting.current = false;
      setDeletingId(null);
      setToDelete(null);
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

      {allowed.dashboard && <DashboardFigures />}
      {attention}

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
        <FilterFold id="shipment-filters" activeCount={activeFilterCount(list.params)} forceOpen={list.dateError !== null}>
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
          <div className="field toolbar-date">
            <label htmlFor="shipment-from" className="field-label">
              Created from
            </label>
            <input
              id="shipment-from"
              type="date"
              className="input"
              value={list.params.from}
              onChange={(event) => list.setFilter({ from: event.target.value })}
            />
          </div>
          <div className="field toolbar-date">
            <label htmlFor="shipment-to" className="field-label">
              Created to
            </label>
            <input
              id="shipment-to"
              type="date"
              className="input"
              value={list.params.to}
              min={list.params.from || undefined}
              aria-invalid={list.dateError ? true : undefined}
              aria-describedby={list.dateError ? 'shipment-to-error' : undefined}
              onChange={(event) => list.setFilter({ to: event.target.value })}
            />
          </div>
          {list.dateError && (
            <p id="shipment-to-error" className="field-error toolbar-error" role="alert">
              {list.dateError}
            </p>
          )}
          <div className="field toolbar-sort">
            <label htmlFor="shipment-sort" className="field-label">
              Sort
            </label>
            <select
              id="shipment-sort"
              className="select"
              value={list.params.sort}
              onChange={(event) => list.setFilter({ sort: event.target.value })}
            >
              {SORTS.map((sort) => (
                <option key={sort.value} value={sort.value}>
                  {sort.label}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox-row toolbar-late">
            <input
              type="checkbox"
              checked={list.params.late}
              onChange={(event) => list.setFilter({ late: event.target.checked })}
            />
            Late only
          </label>
        </FilterFold>
        <button
          type="button"
          className="btn btn-outline toolbar-refresh"
          onClick={list.refresh}
          disabled={state.loading || list.dateError !== null}
          aria-busy={state.loading}
        >
          <RefreshCw className={state.loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
          Refresh
        </button>
        {allowed.export && (
          <a
            className="btn btn-outline toolbar-refresh"
            href={exportHref(list.params)}
            download
            aria-disabled={list.dateError !== null || exportCsv.starting || undefined}
            aria-busy={exportCsv.starting || undefined}
            onClick={(event) => {
              // Checked first, so that a refusal is said in words rather than saved as a file.
              event.preventDefault();
              if (list.dateError === null && !exportCsv.starting) void exportCsv.start(exportHref(list.params));
            }}
          >
            <Download aria-hidden="true" size={18} />
            Export CSV
          </a>
        )}
        {allowed.import && (
          <Link className="btn btn-outline toolbar-refresh" to={ADMIN_IMPORT_PATH}>
            <FileUp aria-hidden="true" size={18} />
            Import CSV
          </Link>
        )}
      </div>

      {list.params.customer && (
        <CustomerFilterChip
          id={list.params.customer}
          canRead={allowed.customers}
          onRemove={() => list.setFilter({ customer: '' })}
        />
      )}

      {(allowed.track || allowed.labels || allowed.assign) && (selected.size > 0 || allMatching) && (
        <div className="bulk-bar" role="region" aria-label="Selected shipments">
          <p>
            {allMatching ? `All ${totalText} matching shipments selected` : `${selected.size} selected`}
          </p>
          {allowed.track &&
            !allMatching &&
            selected.size === state.shipments.length &&
            total > state.shipments.length &&
            (total <= MAX_BATCH ? (
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setAllMatching(true)}>
                Select all {totalText} that match
              </button>
            ) : (
              <p className="muted">Narrow the filter to {MAX_BATCH.toLocaleString('en-US')} or fewer to change them all.</p>
            ))}
          {allowed.labels && !allMatching && (
            <>
              <a className="btn btn-outline btn-sm" href={labelsPath([...selected], 'label')} target="_blank" rel="noopener">
                <Tag aria-hidden="true" size={16} />
                Print labels
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
              <a className="btn btn-outline btn-sm" href={labelsPath([...selected], 'waybill')} target="_blank" rel="noopener">
                <FileText aria-hidden="true" size={16} />
                Print waybills
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </>
          )}
          {allowed.assign && !allMatching && (
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setDialog({ kind: 'assign', ids: [...selected] })}>
              <UserRoundCheck aria-hidden="true" size={16} />
              Assign to courier
            </button>
          )}
          {allowed.track && (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() =>
                setDialog({
                  kind: 'bulk',
                  selection: allMatching
                    ? { kind: 'filter', filter: list.filter, count: total }
                    : { kind: 'ids', ids: [...selected] },
                })
              }
            >
              <ListChecks aria-hidden="true" size={16} />
              Update Status
            </button>
          )}
          <button
            type="button"
            className="btn btn-outline btn-sm"
            onClick={() => {
              setSelected(new Set());
              setAllMatching(false);
            }}
          >
            Clear selection
          </button>
        </div>
      )}

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
      {(allowed.track || allowed.labels || allowed.assign) && state.shipments.length > 0 && (
        <label className="checkbox-row select-page">
          <input
            type="checkbox"
            checked={allMatching || state.shipments.every((sh) => selected.has(sh.id))}
            onChange={(event) => {
              setAllMatching(false);
              setSelected(event.target.checked ? new Set(state.shipments.map((sh) => sh.id)) : new Set());
            }}
          />
          Select every shipment on this page
        </label>
      )}

      {exportCsv.error && (
        <div className="alert alert-error" role="alert">
          <AlertCircle aria-hidden="true" size={22} />
          <p>{exportCsv.error}</p>
        </div>
      )}

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
          selection={
            allowed.track || allowed.labels || allowed.assign
              ? {
                  selected: allMatching ? new Set(state.shipments.map((sh) => sh.id)) : selected,
                  onChange: (next) => {
                    setAllMatching(false);
                    setSelected(next);
                  },
                }
              : undefined
          }
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

      {toDelete && (
        <ConfirmDialog
          title={`Delete shipment ${toDelete.trackingNumber}?`}
          confirmLabel="Delete"
          busy={deletingId === toDelete.id}
          onCancel={() => setToDelete(null)}
          onConfirm={() => void confirmDelete(toDelete)}
        >
          <p>{DELETE_CONFIRM_MESSAGE}</p>
          <p>
            Shipment <strong className="mono">{toDelete.trackingNumber}</strong> and its history are removed for good.
          </p>
        </ConfirmDialog>
      )}
      {dialog.kind === 'create' && (
        <CreateShipmentModal
          customers={allowed.customers}
          onClose={closeDialog}
          onCreated={(shipment) => {
            closeDialog();
            setCreated(shipment);
            list.toFirstPage();
          }}
        />
      )}
      {dialog.kind === 'view' && (
        <ShipmentDetailsDialog
          shipment={dialog.shipment}
          onClose={closeDialog}
          showActivity={allowed.activity}
          showLabels={allowed.labels}
          canRecordProof={allowed.recordProof}
          canReadCustomers={allowed.customers}
          canAddNotes={allowed.track}
        />
      )}
      {dialog.kind === 'bulk' && (
        <BulkUpdateModal
          selection={dialog.selection}
          onClose={closeDialog}
          onDone={() => {
            setSelected(new Set());
            setAllMatching(false);
          }}
        />
      )}
      {dialog.kind === 'assign' && (
        <AssignCourierModal
          ids={dialog.ids}
          onClose={closeDialog}
          onDone={() => {
            setSelected(new Set());
            setAllMatching(false);
          }}
        />
      )}
      {dialog.kind === 'track' && (
        <UpdateTrackingModal
          shipment={dialog.shipment}
          canRecordProof={allowed.recordProof}
          onClose={closeDialog}
          onUpdated={closeDialog}
        />
      )}
      {dialog.kind === 'edit' && (
        <EditShipmentModal
          customers={allowed.customers}
          shipment={dialog.shipment}
          onClose={closeDialog}
          onUpdated={closeDialog}
        />
      )}
    </div>
  );
}
