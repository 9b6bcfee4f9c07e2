import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { CheckCircle2, NotebookPen, RefreshCw, UserCheck, UserPlus } from 'lucide-react';
import type { ShipmentException } from '@/gen/logistics/v1/shipment_exception_service_pb';
import type { User } from '@/gen/logistics/v1/user_pb';
import { StatusBadge } from '@/components/shipment/StatusBadge';
import { EmailAddress, Ltr } from '@/components/ui/Bidi';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Modal } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import '@/components/ui/data-table.css';
import { shipmentSearchPath } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { EMPTY_VALUE, formatDateParts, formatDateTime } from '@/utils/format';
import { statusKey } from '@/utils/shipment';
import { useAssignException, useExceptionCounts, useExceptionQueue } from '../api/exceptions';
import { useExceptionParams } from '../hooks/use-exception-params';
import { useNow } from '../hooks/use-now';
import {
  ASSIGNEE_OPTIONS,
  EXCEPTION_KINDS,
  countText,
  failureLabel,
  formatSince,
  kindLabel,
  kindTone,
  listFilter,
  type AssigneeKey,
  type ExceptionParams,
  type StateKey,
} from '../utils/exceptions';
import { AssignExceptionDialog } from './AssignExceptionDialog';
import { ResolveExceptionDialog } from './ResolveExceptionDialog';
import './exceptions.css';

type Dialog = { kind: 'assign' | 'resolve' | 'notes'; exception: ShipmentException } | null;

/** The exceptions queue: the shipments that need attention, the longest-standing first, filtered
 * by kind (with the open counts), state and assignee (all in the address); Assign to me, Assign…
 * and Resolve… for those who manage exceptions. */
export function ExceptionsPage({
  user,
  canManage,
  canListUsers,
  notesOf,
}: {
  user: User;
  canManage: boolean;
  canListUsers: boolean;
  /** A shipment's internal notes (another feature's, given by the route). */
  notesOf: (shipmentId: string) => ReactNode;
}) {
  const { params, update } = useExceptionParams();
  const queue = useExceptionQueue(listFilter(params));
  const counts = useExceptionCounts();
  const now = useNow();
  const assign = useAssignException();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState('');
  const { exceptions, loading } = queue;
  const open = params.state === 'open';

  const countOf = (kind: ExceptionParams['kind']) => {
    const all = counts.data?.counts ?? [];
    if (kind === 'all') {
      if (all.some((c) => Number(c.count) > 1000)) return countText(1001);
      return countText(all.reduce((sum, c) => sum + Number(c.count), 0));
    }
    const value = EXCEPTION_KINDS.find((k) => k.key === kind)?.value;
    return countText(all.find((c) => c.kind === value)?.count ?? 0);
  };

  const assignToMe = async (exception: ShipmentException) => {
    setBusy(exception.id);
    try {
      await assign({ id: exception.id, assigneeId: user.id, assigneeEmail: user.email });
      toast.success(`${exception.trackingNumber} (${kindLabel(exception.kind)}) assigned to you`);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to assign the exception'));
    } finally {
      setBusy('');
    }
  };

  const total = queue.totalSize;
  const noun = `${open ? 'open' : 'resolved'} exception${total === 1 ? '' : 's'}`;
  const filtered = params.kind !== 'all' || params.assignee !== 'anyone';

  return (
    <div className="admin-exceptions">
      <div className="admin-page-head">
        <h1>Exceptions</h1>
        <div className="admin-page-actions">
          <button
            type="button"
            className="btn btn-outline"
            onClick={() => {
              queue.reload();
              void counts.refetch();
            }}
            disabled={loading}
          >
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
        </div>
      </div>

      <div className="card exception-filters" role="search" aria-label="Exceptions">
        <fieldset className="exception-kinds">
          <legend className="field-label">Kind</legend>
          <div className="kind-chips">
            {[{ key: 'all' as const, label: 'All kinds' }, ...EXCEPTION_KINDS].map((kind) => (
              <label key={kind.key} className={`kind-chip${params.kind === kind.key ? ' is-checked' : ''}`}>
                <input
                  type="radio"
                  name="exception-kind"
                  value={kind.key}
                  checked={params.kind === kind.key}
                  onChange={() => update({ kind: kind.key })}
                />
                <span className="kind-chip-label">{kind.label}</span>{' '}
                {counts.data && (
                  <span className="kind-chip-count">
                    {countOf(kind.key)}
                    <span className="visually-hidden"> open</span>
                  </span>
                )}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="exception-selects">
          <div className="field">
            <label htmlFor="exception-state" className="field-label">
              State
            </label>
            <select id="exception-state" className="select" value={params.state} onChange={(event) => update({ state: event.target.value as StateKey })}>
              <option value="open">Open</option>
              <option value="resolved">Resolved</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="exception-assignee" className="field-label">
              Assignee
            </label>
            <select
              id="exception-assignee"
              className="select"
              value={params.assignee}
              onChange={(event) => update({ assignee: event.target.value as AssigneeKey })}
            >
              {ASSIGNEE_OPTIONS.map((option) => (
                <option key={option.key} value={option.key}>
                  {option.key === 'me' && counts.data && open ? `${option.label} (${countText(counts.data.mine)} open)` : option.label}
                </option>
              ))}
            </select>
          </div>
        </div>
      </div>

      {counts.error && <p className="field-error">{serverMessage(counts.error, 'Failed to load the counts')}</p>}
      {queue.error && !loading && <ErrorAlert message={serverMessage(queue.error, 'Failed to load the exceptions')} />}

      <div className="list-summary" aria-live="polite">
        {!queue.pending && !queue.error && (
          <p className="muted" data-testid="exception-count">
            {countText(total)} {noun}
          </p>
        )}
        {loading && !queue.pending && <Spinner size="sm" label="Loading exceptions…" />}
      </div>

      {queue.pending ? (
        <Spinner label="Loading exceptions…" />
      ) : exceptions.length === 0 ? (
        !queue.error && (
          <p className="empty-state">
            {open ? 'No open exceptions' : 'No resolved exceptions'}
            {filtered ? ' match these filters.' : '.'}
          </p>
        )
      ) : (
        <div className="table-cards">
          <div className="table-scroll" role="region" aria-label="Exceptions" tabIndex={0}>
            <table className="data-table exceptions-table" aria-busy={loading}>
              <thead>
                <tr>
                  <th scope="col">Tracking number</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Since</th>
                  <th scope="col">Status</th>
                  <th scope="col">Location</th>
                  <th scope="col">Expected delivery</th>
                  <th scope="col">Receiver / shipper</th>
                  <th scope="col">Assignee</th>
                  {open ? canManage && <th scope="col">Actions</th> : <th scope="col">Resolution</th>}
                </tr>
              </thead>
              <tbody>
                {exceptions.map((exception) => (
                  <ExceptionRow
                    key={exception.id}
                    exception={exception}
                    now={now}
                    userId={user.id}
                    resolved={!open}
                    onNotes={() => setDialog({ kind: 'notes', exception })}
                    actions={
                      open && canManage
                        ? {
                            busy: busy === exception.id,
                            assignToMe: () => void assignToMe(exception),
                            assign: () => setDialog({ kind: 'assign', exception }),
                            resolve: () => setDialog({ kind: 'resolve', exception }),
                          }
                        : undefined
                    }
                  />
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      {queue.hasMore && (
        <button type="button" className="btn btn-outline exceptions-more" onClick={queue.loadMore} disabled={loading}>
          Load more
        </button>
      )}

      {dialog?.kind === 'assign' && (
        <AssignExceptionDialog exception={dialog.exception} user={user} canListUsers={canListUsers} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'resolve' && <ResolveExceptionDialog exception={dialog.exception} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'notes' && (
        <Modal title={`Shipment ${dialog.exception.trackingNumber}`} onClose={() => setDialog(null)}>
          {notesOf(dialog.exception.shipmentId)}
        </Modal>
      )}
    </div>
  );
}

type RowActions = { busy: boolean; assignToMe: () => void; assign: () => void; resolve: () => void };

function ExceptionRow({
  exception: e,
  now,
  userId,
  resolved,
  onNotes,
  actions,
}: {
  exception: ShipmentException;
  now: Date;
  userId: string;
  /** Opens the shipment's internal notes. */
  onNotes: () => void;
  /** The resolved list: the row says what was done, by whom and when. */
  resolved: boolean;
  actions?: RowActions;
}) {
  const since = e.sinceTime ? timestampDate(e.sinceTime) : undefined;
  const date = e.expectedDeliveryDate;
  const reason = failureLabel(e.failedAttempt);
  const what = `${e.trackingNumber} (${kindLabel(e.kind)})`;
  return (
    <tr data-exception-id={e.id} data-tracking-number={e.trackingNumber}>
      <th scope="row" className="mono">
        <Link to={shipmentSearchPath(e.trackingNumber)} title="Open the shipment in the list">
          <Ltr>{e.trackingNumber}</Ltr>
        </Link>
        <button type="button" className="btn btn-outline btn-sm exception-notes" onClick={onNotes}>
          <NotebookPen aria-hidden="true" size={16} />
          Notes<span className="visually-hidden"> on {e.trackingNumber}</span>
        </button>
      </th>
      <td className="card-aside exception-kind">
        <span className={`status-pill tone-${kindTone(e.kind)}`}>{kindLabel(e.kind)}</span>
        {reason && <span className="exception-reason">{reason}</span>}
      </td>
      <td data-label="Since">
        {since ? (
          <span>
            <span className="exception-since">{formatSince(since, now)}</span>
            <time className="exception-when" dateTime={since.toISOString()}>
              {formatDateTime(since)}
            </time>
          </span>
        ) : (
          EMPTY_VALUE
        )}
      </td>
      <td data-label="Status">
        <span>
          <StatusBadge statusKey={statusKey(e.status)} />
        </span>
      </td>
      <td data-label="Location" className="cell-text">
        {e.currentLocation ? <bdi>{e.currentLocation}</bdi> : EMPTY_VALUE}
      </td>
      <td data-label="Expected delivery">{date ? formatDateParts(date.year, date.month, date.day) : EMPTY_VALUE}</td>
      <td data-label="Receiver / shipper" className="cell-text">
        <span>
          {e.receiverName ? <bdi>{e.receiverName}</bdi> : EMPTY_VALUE}
          {e.shipperName && (
            <span className="exception-shipper">
              from <bdi>{e.shipperName}</bdi>
            </span>
          )}
        </span>
      </td>
      <td data-label="Assignee">
        {e.assigneeId ? (
          <span className="exception-assignee">
            {e.assigneeEmail ? <EmailAddress address={e.assigneeEmail} /> : 'Someone'}
            {e.assigneeId === userId && <span className="exception-me"> (you)</span>}
          </span>
        ) : (
          'Unassigned'
        )}
      </td>
      {actions && (
        <td className="card-actions exception-actions">
          <div className="exception-action-list">
            {e.assigneeId !== userId && (
              <button type="button" className="btn btn-outline btn-sm" disabled={actions.busy} onClick={actions.assignToMe}>
                <UserCheck aria-hidden="true" size={16} />
                Assign to me<span className="visually-hidden">: {what}</span>
              </button>
            )}
            <button type="button" className="btn btn-outline btn-sm" disabled={actions.busy} onClick={actions.assign}>
              <UserPlus aria-hidden="true" size={16} />
              Assign…<span className="visually-hidden"> {what}</span>
            </button>
            <button type="button" className="btn btn-primary btn-sm" disabled={actions.busy} onClick={actions.resolve}>
              <CheckCircle2 aria-hidden="true" size={16} />
              Resolve…<span className="visually-hidden"> {what}</span>
            </button>
          </div>
        </td>
      )}
      {resolved && (
        <td data-label="Resolution" className="cell-text">
          <span>
            <span className="exception-resolution">{e.resolution}</span>
            <span className="exception-when">
              {[e.resolvedBy && `by ${e.resolvedBy}`, e.resolveTime && formatDateTime(timestampDate(e.resolveTime))].filter(Boolean).join(', ')}
            </span>
          </span>
        </td>
      )}
    </tr>
  );
}
