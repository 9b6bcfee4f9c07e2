import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Check, ChevronLeft, ChevronRight, RefreshCw, X } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { AccountRequestState, type AccountRequest } from '@/gen/logistics/v1/customer_pb';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { ConfirmDialog } from '@/components/ui/Modal';
import { Spinner } from '@/components/ui/Spinner';
import { LANGUAGES } from '@/config/languages';
import { customerPath } from '@/config/routes';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { EMPTY_VALUE, formatDateTime } from '@/utils/format';
import { useAccountRequestsPage, useApproveAccountRequest } from '../api/customers';
import {
  REQUEST_STATES,
  requestParamsFrom,
  requestParamsTo,
  requestState,
  requestStateFilter,
  type RequestListParams,
} from '../utils/request-params';
import { CustomersTabs } from './CustomersTabs';
import { DeclineRequestDialog } from './DeclineRequestDialog';
import './customers.css';

type Dialog = { kind: 'approve' | 'decline'; request: AccountRequest } | null;

const languageName = (code: string) => LANGUAGES.find((l) => l.code === (code || 'en'))?.name ?? code;

/** Account requests: visitors asking for a customer account, newest first, by state (in the
 * address); those who manage customers approve (a customer is made, its contact invited) or
 * decline them with a reason. */
export function AccountRequestsPage({ canManage }: { canManage: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = requestParamsFrom(searchParams);
  const list = useAccountRequestsPage({ state: requestStateFilter(params.state), pageToken: params.after });
  const requests = list.data?.accountRequests ?? [];
  const loading = list.isFetching;
  const nextToken = loading ? '' : (list.data?.nextPageToken ?? '');
  // Tokens of the pages before this one, while the filter stays the same.
  const [earlier, setEarlier] = useState<{ state: string; tokens: string[] }>({ state: params.state, tokens: [] });
  if (earlier.state !== params.state) setEarlier({ state: params.state, tokens: [] });
  const go = (next: RequestListParams, push = false) => setSearchParams(requestParamsTo(next), { replace: !push });

  const [dialog, setDialog] = useState<Dialog>(null);
  const [approving, setApproving] = useState(false);
  const approve = useApproveAccountRequest();
  const approveRequest = async (request: AccountRequest) => {
    setApproving(true);
    try {
      await approve({ id: request.id });
      toast.success(`${request.companyName} approved: ${request.email} is invited`);
      setDialog(null);
    } catch (error) {
      toast.error(serverMessage(error, 'Failed to approve the request'));
    } finally {
      setApproving(false);
    }
  };

  return (
    <div className="admin-customers">
      <div className="admin-page-head">
        <h1>Customers</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={() => void list.refetch()} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
        </div>
      </div>
      <CustomersTabs />

      <div className="card filter-form" role="search">
        <div className="field">
          <label htmlFor="request-state" className="field-label">
            State
          </label>
          <select
            id="request-state"
            className="select"
            value={params.state}
            onChange={(event) => go({ state: event.target.value as RequestListParams['state'], after: '', page: 1 })}
          >
            <option value="all">All</option>
            {REQUEST_STATES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.error && !loading && <ErrorAlert message={serverMessage(list.error, 'Failed to load account requests')} />}

      {list.isPending ? (
        <Spinner label="Loading account requests…" />
      ) : requests.length === 0 ? (
        !list.error && <p className="empty-state">No account requests{params.state === 'all' ? ' yet' : ' in this state'}.</p>
      ) : (
        <ul className="account-requests" aria-busy={loading}>
          {requests.map((request) => {
            const state = requestState(request.state);
            const pending = request.state === AccountRequestState.PENDING;
            return (
              <li key={request.id} className="card account-request" data-request-id={request.id}>
                <div className="account-request-head">
                  <h2 className="account-request-company">{request.companyName}</h2>
                  <span className={`status-pill tone-${state.tone}`}>{state.label}</span>
                </div>
                <dl className="customer-facts">
                  <div>
                    <dt>Contact</dt>
                    <dd>{request.contactName}</dd>
                  </div>
                  <div>
                    <dt>E-mail</dt>
                    <dd>
                      <a href={`mailto:${request.email}`}>{request.email}</a>
                    </dd>
                  </div>
                  <div>
                    <dt>Phone</dt>
                    <dd dir="ltr" className="account-request-phone">
                      {request.phone || EMPTY_VALUE}
                    </dd>
                  </div>
                  <div>
                    <dt>Language</dt>
                    <dd>{languageName(request.languageCode)}</dd>
                  </div>
                  <div>
                    <dt>Received</dt>
                    <dd>{formatDateTime(request.createTime ? timestampDate(request.createTime) : undefined)}</dd>
                  </div>
                  <div className="customer-fact-wide">
                    <dt>Address</dt>
                    <dd className="pre-line">{request.address || EMPTY_VALUE}</dd>
                  </div>
                  <div className="customer-fact-wide">
                    <dt>Message</dt>
                    <dd className="pre-line">{request.message || EMPTY_VALUE}</dd>
                  </div>
                  {request.declineReason && (
                    <div className="customer-fact-wide">
                      <dt>Reason for declining</dt>
                      <dd className="pre-line">{request.declineReason}</dd>
                    </div>
                  )}
                </dl>
                {(request.customerId || (pending && canManage)) && (
                  <div className="account-request-actions">
                    {request.customerId && <Link to={customerPath(request.customerId)}>Open the customer {request.companyName}</Link>}
                    {pending && canManage && (
                      <>
                        <button type="button" className="btn btn-primary btn-sm" onClick={() => setDialog({ kind: 'approve', request })}>
                          <Check aria-hidden="true" size={16} />
                          Approve
                        </button>
                        <button type="button" className="btn btn-outline btn-sm" onClick={() => setDialog({ kind: 'decline', request })}>
                          <X aria-hidden="true" size={16} />
                          Decline
                        </button>
                      </>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}

      {(params.page > 1 || nextToken) && (
        <nav className="customers-pagination" aria-label="Pages">
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={params.page <= 1 || loading}
            onClick={() => {
              // Unknown after a reload on a later page: back to the first.
              const token = earlier.tokens[params.page - 2];
              go(token === undefined ? { ...params, after: '', page: 1 } : { ...params, after: token, page: params.page - 1 }, true);
            }}
          >
            <ChevronLeft className="flip-rtl" aria-hidden="true" size={16} />
            Previous
          </button>
          <span className="muted">Page {params.page}</span>
          <button
            type="button"
            className="btn btn-outline btn-sm"
            disabled={!nextToken}
            onClick={() => {
              setEarlier((e) => {
                const tokens = [...e.tokens];
                tokens[params.page - 1] = params.after;
                return { ...e, tokens };
              });
              go({ ...params, after: nextToken, page: params.page + 1 }, true);
            }}
          >
            Next
            <ChevronRight className="flip-rtl" aria-hidden="true" size={16} />
          </button>
        </nav>
      )}

      {dialog?.kind === 'approve' && (
        <ConfirmDialog
          title="Approve request"
          confirmLabel="Approve"
          busy={approving}
          onCancel={() => setDialog(null)}
          onConfirm={() => void approveRequest(dialog.request)}
        >
          <p>
            Approve {dialog.request.companyName}? A customer is created and {dialog.request.email} is invited as its customer admin.
          </p>
        </ConfirmDialog>
      )}
      {dialog?.kind === 'decline' && <DeclineRequestDialog request={dialog.request} onClose={() => setDialog(null)} />}
    </div>
  );
}
