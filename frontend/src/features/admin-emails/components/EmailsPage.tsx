import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { FilterActions } from '@/components/admin/FilterActions';
import { FilterFold } from '@/components/admin/FilterFold';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { EmailAddress } from '@/components/ui/Bidi';
import { Field } from '@/components/ui/Field';
import { EmailTemplate, NotificationState, type Notification } from '@/gen/logistics/v1/notification_pb';
import { Spinner } from '@/components/ui/Spinner';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useConfirm } from '@/hooks/use-confirm';
import { formatDateTime } from '@/utils/format';
import { useEmails, useRetryEmail, useRetryFailedEmails } from '../hooks/use-emails';
import { type EmailFilters, NO_FILTERS, STATES, filtersFromParams, filtersToParams } from '../utils/filters';
import { EmailTestButton } from './EmailTestButton';
import './emails.css';

const STATE_TONES: Record<number, string> = {
  [NotificationState.QUEUED]: 'grey',
  [NotificationState.SENDING]: 'blue',
  [NotificationState.SENT]: 'green',
  [NotificationState.RETRYING]: 'yellow',
  [NotificationState.FAILED]: 'red',
};


const TEMPLATE_NAMES: Record<number, string> = {
  [EmailTemplate.SHIPPER]: 'Shipper',
  [EmailTemplate.RECEIVER]: 'Receiver',
  [EmailTemplate.CONTACT]: 'Contact form',
  [EmailTemplate.ALERT]: 'Alert',
  [EmailTemplate.CUSTOMER_INVITATION]: 'Customer invitation',
  [EmailTemplate.PICKUP_CONFIRMED]: 'Pickup confirmed',
  [EmailTemplate.ACCOUNT_REQUEST_DECLINED]: 'Account request declined',
  [EmailTemplate.EXCEPTION_DIGEST]: 'Exceptions digest',
};

/** Who it is for, the address wrapping at its "@" and dots on a phone. */
function recipient(email: Notification): ReactNode {
  if (email.template === EmailTemplate.CONTACT) return 'Company inbox';
  if (!email.toName) return <EmailAddress address={email.toEmail} />;
  return (
    <>
      {email.toName} &lt;
      <EmailAddress address={email.toEmail} />
      &gt;
    </>
  );
}

/** The e-mail outbox: filters kept in the address, then the e-mails they match. */
export function EmailsPage({ canSend }: { canSend: boolean }) {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const form = useForm<EmailFilters>({ values: filters });
  const apply = form.handleSubmit((values) => setParams(filtersToParams(values)));
  const setCount = [filters.state, filters.query].filter(Boolean).length;
  const filtered = setCount > 0;

  return (
    <div className="admin-emails">
      <div className="admin-page-head">
        <h1>Emails</h1>
        <div className="admin-page-actions">{canSend && <EmailTestButton />}</div>
      </div>
      <EmailResults
        filters={filters}
        filtered={filtered}
        canSend={canSend}
        filterForm={
          <FilterFold id="email-filters" activeCount={setCount}>
            <form className="card filter-form" onSubmit={apply} aria-label="Filter the emails">
              <Field id="email-state" label="State">
                <select id="email-state" className="input" {...form.register('state')}>
                  <option value="">All states</option>
                  {STATES.map((state) => (
                    <option key={state.value} value={state.value}>
                      {state.label}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id="email-query" label="Recipient or tracking number">
                <input id="email-query" type="search" className="input" maxLength={200} {...form.register('query')} />
              </Field>
              <FilterActions filtered={filtered} onClear={() => setParams(filtersToParams(NO_FILTERS))} />
            </form>
          </FilterFold>
        }
      />
    </div>
  );
}

/** The e-mails of one set of filters, with Refresh, Retry, Retry all failed and Load more; the
 * folded filter form opens under the Filters and Refresh buttons. */
function EmailResults({
  filters,
  filtered,
  canSend,
  filterForm,
}: {
  filters: EmailFilters;
  filtered: boolean;
  canSend: boolean;
  filterForm: ReactNode;
}) {
  const { emails, backlog, loading, error, hasMore, reload, loadMore } = useEmails(filters);
  const retryEmail = useRetryEmail();
  const retryFailedEmails = useRetryFailedEmails();
  const [retrying, setRetrying] = useState<string | null>(null);
  const { ask, dialog } = useConfirm();
  const showsFailed = filters.state === 'failed' && emails.length > 0;

  const retry = async (email: Notification) => {
    if (retrying) return;
    setRetrying(email.id);
    try {
      await retryEmail(email.id);
      toast.success('Email queued again');
    } catch (err) {
      toast.error(serverMessage(err, 'Failed to retry email'));
    } finally {
      setRetrying(null);
    }
  };

  const retryAll = async () => {
    if (retrying) return;
    const sure = await ask({
      title: 'Retry all failed emails?',
      body: 'Queue every failed email that matches these filters again?',
      confirmLabel: 'Retry all',
    });
    if (!sure) return;
    setRetrying('all');
    try {
      const count = await retryFailedEmails(filters.query);
      toast.success(count === 1 ? '1 email queued again' : `${count} emails queued again`);
    } catch (err) {
      toast.error(serverMessage(err, 'Failed to retry emails'));
    } finally {
      setRetrying(null);
    }
  };

  return (
    <>
      {dialog}
      <div className="admin-page-actions filter-bar email-results-head">
        <p className="muted">
          Shipment e-mails and contact messages on their way out.{' '}
          <span data-testid="email-backlog">{backlog === 0 ? 'Nothing waiting.' : `${backlog} waiting to be sent.`}</span>
        </p>
        {filterForm}
        {canSend && showsFailed && (
          <button type="button" className="btn btn-outline" onClick={retryAll} disabled={retrying !== null}>
            Retry all failed
          </button>
        )}
        <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
          Refresh
        </button>
      </div>

      {error && <ErrorAlert message={error} />}

      {loading && emails.length === 0 ? (
        <Spinner label="Loading emails…" />
      ) : emails.length === 0 ? (
        !error && <p className="empty-state">{filtered ? 'No emails match these filters.' : 'No emails yet.'}</p>
      ) : (
        <ul className="email-list" aria-label="Emails" aria-busy={loading}>
          {emails.map((email) => {
            const state = {
              label: STATES.find((s) => s.state === email.state)?.label ?? 'Unknown',
              tone: STATE_TONES[email.state] ?? 'grey',
            };
            const params = Object.entries(email.templateParams).sort(([a], [b]) => a.localeCompare(b));
            return (
              <li key={email.id} className="card email-item" data-email-id={email.id}>
                <div className="email-head">
                  <span className={`status-pill tone-${state.tone}`}>{state.label}</span>
                  <strong>{email.subject || '(no subject)'}</strong>
                  <span className="muted">{TEMPLATE_NAMES[email.template] ?? 'Email'}</span>
                  {email.trackingNumber && <span className="mono">{email.trackingNumber}</span>}
                </div>
                <dl className="email-meta">
                  <div>
                    <dt>To</dt>
                    <dd>{recipient(email)}</dd>
                  </div>
                  <div>
                    <dt>Queued</dt>
                    <dd>{formatDateTime(email.createTime ? timestampDate(email.createTime) : undefined)}</dd>
                  </div>
                  <div>
                    <dt>Attempts</dt>
                    <dd>{email.attempts}</dd>
                  </div>
                  {(email.state === NotificationState.QUEUED || email.state === NotificationState.RETRYING) && (
                    <div>
                      <dt>Next attempt</dt>
                      <dd>{formatDateTime(email.nextAttemptTime ? timestampDate(email.nextAttemptTime) : undefined)}</dd>
                    </div>
                  )}
                  {email.lastError && (
                    <div>
                      <dt>Last error</dt>
                      <dd className="field-error">{email.lastError}</dd>
                    </div>
                  )}
                </dl>
                {email.textBody && (
                  <details className="email-content">
                    <summary>Message</summary>
                    <pre className="email-body">{email.textBody}</pre>
                  </details>
                )}
                {params.length > 0 ? (
                  <details className="email-content">
                    <summary>Content</summary>
                    <dl>
                      {params.map(([name, value]) => (
                        <div key={name} className="detail-row">
                          <dt className="mono">{name}</dt>
                          <dd className="email-param">{value}</dd>
                        </div>
                      ))}
                    </dl>
                  </details>
                ) : (
                  <p className="muted">Content removed after delivery.</p>
                )}
                {canSend && email.state === NotificationState.FAILED && (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline"
                    disabled={retrying !== null}
                    onClick={() => retry(email)}
                    aria-label={`Retry email ${email.subject} to ${recipient(email)}`}
                  >
                    Retry
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && (
        <button type="button" className="btn btn-outline" onClick={loadMore} disabled={loading}>
          Load more
        </button>
      )}
    </>
  );
}
