import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { RefreshCw } from 'lucide-react';
import type { Pickup } from '@/gen/logistics/v1/customer_pb';
import type { User } from '@/gen/logistics/v1/user_pb';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ConfirmDialog } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import '@/components/ui/data-table.css';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useToday } from '@/hooks/use-today';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { EMPTY_VALUE, formatDateParts, formatTimeOfDay } from '@/utils/format';
import { useCompletePickup, useConfirmPickup, usePickupQueue } from '../api/pickups';
import {
  PICKUP_STATES,
  dateFromIso,
  pickupActions,
  pickupParamsFrom,
  pickupParamsTo,
  pickupState,
  stateFilter,
  type PickupParams,
} from '../utils/pickup-params';
import { AssignPickupDialog } from './AssignPickupDialog';
import { FailPickupDialog } from './FailPickupDialog';
import './pickups.css';

const AREA_DEBOUNCE_MS = 300;

type Dialog = { kind: 'assign' | 'collect' | 'fail'; pickup: Pickup } | null;

const time = (t: Pickup['windowStart']) => (t ? formatTimeOfDay(t.hours, t.minutes) : EMPTY_VALUE);

/** The pickups queue: one day's pickups (day, area and state in the address), each with Assign,
 * Confirm, Mark collected and Mark failed as its state allows. */
export function PickupsPage({ user, canListUsers }: { user: User; canListUsers: boolean }) {
  const today = useToday();
  const [searchParams, setSearchParams] = useSearchParams();
  const params = pickupParamsFrom(searchParams, today);
  const [area, setArea] = useState(params.area);
  // The address changed by other means (a link, Back): the box shows its area.
  const [addressArea, setAddressArea] = useState(params.area);
  if (addressArea !== params.area) {
    setAddressArea(params.area);
    if (params.area !== area.trim()) setArea(params.area);
  }
  const typedArea = useDebouncedValue(area.trim(), AREA_DEBOUNCE_MS);
  const update = useCallback(
    (change: Partial<PickupParams>) =>
      setSearchParams(
        // The address as it is now, so two quick changes do not undo each other.
        () => pickupParamsTo({ ...pickupParamsFrom(new URLSearchParams(window.location.search), today), ...change }, today),
        { replace: true },
      ),
    [setSearchParams, today],
  );
  useEffect(() => {
    if (typedArea !== params.area) update({ area: typedArea });
  }, [typedArea, params.area, update]);

  const day = dateFromIso(params.date) ?? { year: 0, month: 0, day: 0 };
  const queue = usePickupQueue({ date: day, area: params.area, state: stateFilter(params.state) });
  const { pickups, loading } = queue;
  const confirm = useConfirmPickup();
  const complete = useCompletePickup();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState('');

  const confirmPickup = async (pickup: Pickup) => {
    setBusy(pickup.id);
    try {
      await confirm({ id: pickup.id });
      toast.success('Pickup confirmed: the customer was e-mailed');
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to confirm the pickup'));
    } finally {
      setBusy('');
    }
  };
  const collect = async (pickup: Pickup) => {
    setBusy(pickup.id);
    try {
      await complete({ id: pickup.id });
      toast.success('Pickup marked collected');
      setDialog(null);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to mark the pickup collected'));
    } finally {
      setBusy('');
    }
  };

  return (
    <div className="admin-pickups">
      <div className="admin-page-head">
        <h1>Pickups</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={queue.reload} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
        </div>
      </div>

      <div className="card filter-form" role="search">
        <div className="field">
          <label htmlFor="pickup-date" className="field-label">
            Date
          </label>
          <input
            id="pickup-date"
            type="date"
            className="input"
            value={params.date}
            onChange={(event) => update({ date: event.target.value || today })}
          />
        </div>
        <div className="field">
          <label htmlFor="pickup-area" className="field-label">
            Area
          </label>
          <input
            id="pickup-area"
            type="search"
            className="input"
            placeholder="Town or district"
            maxLength={100}
            autoComplete="off"
            value={area}
            onChange={(event) => setArea(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="pickup-state" className="field-label">
            State
          </label>
          <select
            id="pickup-state"
            className="select"
            value={params.state}
            onChange={(event) => update({ state: event.target.value as PickupParams['state'] })}
          >
            <option value="all">All</option>
            {PICKUP_STATES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {queue.error && !loading && <ErrorAlert message={serverMessage(queue.error, 'Failed to load pickups')} />}

      {queue.pending ? (
        <Spinner label="Loading pickups…" />
      ) : pickups.length === 0 ? (
        !queue.error && <p className="empty-state">No pickups on {formatDateParts(day.year, day.month, day.day)} match.</p>
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label="Pickups" tabIndex={0}>
            <table className="data-table pickups-table" aria-busy={loading}>
              <thead>
                <tr>
                  <th scope="col">Customer</th>
                  <th scope="col">State</th>
                  <th scope="col">When</th>
                  <th scope="col">Area and address</th>
                  <th scope="col">Parcels</th>
                  <th scope="col">Shipments</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {pickups.map((pickup) => {
                  const state = pickupState(pickup.state);
                  const allowed = pickupActions(pickup.state);
                  const rowBusy = busy === pickup.id;
                  return (
                    <tr key={pickup.id} data-pickup-id={pickup.id}>
                      <th scope="row">{pickup.customerName}</th>
                      <td className="card-aside">
                        <span className={`status-pill tone-${state.tone}`}>{state.label}</span>
                      </td>
                      <td data-label="When">
                        <span>
                          <span className="pickup-when">
                            {pickup.date ? formatDateParts(pickup.date.year, pickup.date.month, pickup.date.day) : EMPTY_VALUE}
                          </span>{' '}
                          <span className="pickup-when">
                            {time(pickup.windowStart)}–{time(pickup.windowEnd)}
                          </span>
                        </span>
                      </td>
                      <td data-label="Area and address" className="pickup-address">
                        <span>
                          <strong className="pickup-area">{pickup.area}</strong> {pickup.address}
                          {pickup.notes && <span className="pickup-notes">{pickup.notes}</span>}
                          {pickup.failureReason && <span className="pickup-notes">Failed: {pickup.failureReason}</span>}
                        </span>
                      </td>
                      <td data-label="Parcels">{pickup.parcelCount}</td>
                      <td data-label="Shipments">{pickup.shipmentIds.length}</td>
                      <td data-label="Agent">{pickup.agentEmail || 'Unassigned'}</td>
                      <td className="pickup-actions">
                        <div className="pickup-actions-list">
                          {allowed.assign && (
                            <button type="button" className="btn btn-outline btn-sm" disabled={rowBusy} onClick={() => setDialog({ kind: 'assign', pickup })}>
                              Assign
                            </button>
                          )}
                          {allowed.confirm && (
                            <button type="button" className="btn btn-outline btn-sm" disabled={rowBusy} onClick={() => void confirmPickup(pickup)}>
                              Confirm
                            </button>
                          )}
                          {allowed.collect && (
                            <button type="button" className="btn btn-outline btn-sm" disabled={rowBusy} onClick={() => setDialog({ kind: 'collect', pickup })}>
                              Mark collected
                            </button>
                          )}
                          {allowed.fail && (
                            <button type="button" className="btn btn-outline btn-sm" disabled={rowBusy} onClick={() => setDialog({ kind: 'fail', pickup })}>
                              Mark failed
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
      )}
      {queue.hasMore && (
        <button type="button" className="btn btn-outline pickups-more" onClick={queue.loadMore} disabled={loading}>
          Load more
        </button>
      )}

      {dialog?.kind === 'assign' && (
        <AssignPickupDialog pickup={dialog.pickup} user={user} canListUsers={canListUsers} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'fail' && <FailPickupDialog pickup={dialog.pickup} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'collect' && (
        <ConfirmDialog
          title="Mark collected"
          confirmLabel="Mark collected"
          busy={busy === dialog.pickup.id}
          onCancel={() => setDialog(null)}
          onConfirm={() => void collect(dialog.pickup)}
        >
          <p>
            {dialog.pickup.shipmentIds.length === 1
              ? 'Its 1 shipment moves to in transit.'
              : `Its ${dialog.pickup.shipmentIds.length} shipments move to in transit.`}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
