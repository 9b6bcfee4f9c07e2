import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { EmailTemplate, NotificationState, type Notification } from '@/gen/logistics/v1/notification_pb';
import { Spinner } from '@/components/ui/Spinner';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateTime } from '@/utils/format';
import { retryEmail } from '../api/emails';
import { useEmails } from '../hooks/use-emails';
import { EmailTestButton } from './EmailTestButton';

const STATE_NAMES: Record<number, { label: string; tone: string }> = {
  [NotificationState.QUEUED]: { label: 'queued', tone: 'grey' },
  [NotificationState.SENDING]: { label: 'sending', tone: 'blue' },
  [NotificationState.SENT]: { label: 'sent', tone: 'green' },
  [NotificationState.RETRYING]: { label: 'retrying', tone: 'yellow' },
  [NotificationState.FAILED]: { label: 'failed', tone: 'red' },
};

const TEMPLATE_NAMES: Record<number, string> = {
  [EmailTemplate.SHIPPER]: 'Shipper',
  [EmailTemplate.RECEIVER]: 'Receiver',
  [EmailTemplate.CONTACT]: 'Contact form',
};

function recipient(email: Notification): string {
  if (email.template === EmailTemplate.CONTACT) return 'Company inbox';
  return email.toName ? `${email.toName} <${email.toEmail}>` : email.toEmail;
}

/** The e-mail outbox: every e-mail with its state, its content, and Retry for failed ones. */
export function EmailsPage({ canSend }: { canSend: boolean }) {
  const { emails, backlog, loading, error, hasMore, reload, loadMore, replace } = useEmails();
  const [retrying, setRetrying] = useState<string | null>(null);

  const retry = async (email: Notification) => {
    if (retrying) return;
    setRetrying(email.id);
    try {
      replace(await retryEmail(email.id));
      toast.success('Email queued again');
    } catch (err) {
      toast.error(serverMessage(err, 'Failed to retry email'));
    } finally {
      setRetrying(null);
    }
  };

  return (
    <div className="admin-emails">
      <div className="admin-page-head">
        <h1>Emails</h1>
        <div className="admin-page-actions">
          {canSend && <EmailTestButton />}
          <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
        </div>
      </div>
      <p className="muted">
        Shipment e-mails and contact messages on their way out.{' '}
        <span data-testid="email-backlog">{backlog === 0 ? 'Nothing waiting.' : `${backlog} waiting to be sent.`}</span>
      </p>

      {error && (
        <ErrorAlert message={error} />
      )}

      {loading && emails.length === 0 ? (
        <Spinner label="Loading emails…" />
      ) : emails.length === 0 ? (
        <p className="empty-state">No emails yet.</p>
      ) : (
        <ul className="email-list" aria-label="Emails" aria-busy={loading}>
          {emails.map((email) => {
            const state = STATE_NAMES[email.state] ?? { label: 'unknown', tone: 'grey' };
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
                  {email.lastError && (
                    <div>
                      <dt>Last error</dt>
                      <dd className="field-error">{email.lastError}</dd>
                    </div>
                  )}
                </dl>
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
    </div>
  );
}
