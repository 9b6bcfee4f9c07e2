import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Spinner } from '@/components/ui/Spinner';
import { WebhookDeliveryState, type WebhookDelivery, type WebhookEndpoint } from '@/gen/logistics/v1/webhook_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateTime } from '@/utils/format';
import { useDeliveries, useResendDelivery } from '../hooks/use-webhooks';
import { DELIVERY_STATES, eventLabel } from '../utils/events';

/** An endpoint's deliveries, with Refresh, Resend and Load more. */
export function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { deliveries, loading, error, hasMore, reload, loadMore } = useDeliveries(endpoint.id);
  const resendDelivery = useResendDelivery();
  const [resending, setResending] = useState<string | null>(null);

  const resend = async (delivery: WebhookDelivery) => {
    if (resending) return;
    setResending(delivery.id);
    try {
      await resendDelivery(delivery.id);
      toast.success('Delivery queued again');
    } catch (err) {
      toast.error(serverMessage(err, 'Failed to resend the delivery'));
    } finally {
      setResending(null);
    }
  };

  return (
    <section id={`deliveries-${endpoint.id}`} className="webhook-deliveries" aria-label={`Deliveries to ${endpoint.url}`}>
      <div className="admin-page-actions">
        <h3>Deliveries</h3>
        <button type="button" className="btn btn-sm btn-outline" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={16} />
          Refresh deliveries
        </button>
      </div>
      {error && <ErrorAlert message={error} />}
      {loading && deliveries.length === 0 ? (
        <Spinner label="Loading deliveries…" size="sm" />
      ) : deliveries.length === 0 ? (
        !error && <p className="empty-state">No deliveries yet.</p>
      ) : (
        <ul className="webhook-delivery-list" aria-busy={loading}>
          {deliveries.map((d) => {
            const state = DELIVERY_STATES[d.state] ?? { label: 'Unknown', tone: 'grey' };
            return (
              <li key={d.id} className="webhook-delivery" data-delivery-id={d.id}>
                <div className="email-head">
                  <span className={`status-pill tone-${state.tone}`}>{state.label}</span>
                  <strong>{eventLabel(d.eventType)}</strong>
                  {d.trackingNumber && <span className="mono">{d.trackingNumber}</span>}
                </div>
                <dl className="email-meta">
                  <div>
                    <dt>Queued</dt>
                    <dd>{formatDateTime(d.createTime ? timestampDate(d.createTime) : undefined)}</dd>
                  </div>
                  <div>
                    <dt>Attempts</dt>
                    <dd>{d.attempts}</dd>
                  </div>
                  {d.nextAttemptTime && (
                    <div>
                      <dt>Next attempt</dt>
                      <dd>{formatDateTime(timestampDate(d.nextAttemptTime))}</dd>
                    </div>
                  )}
                  {d.lastError && (
                    <div>
                      <dt>Last error</dt>
                      <dd className="field-error">{d.lastError}</dd>
                    </div>
                  )}
                </dl>
                {d.attemptLog.length > 0 && (
                  <details className="email-content">
                    <summary>Attempts ({d.attemptLog.length})</summary>
                    <ol className="webhook-attempts">
                      {d.attemptLog.map((a, i) => (
                        <li key={i}>
                          <span className="mono">{a.statusCode === 0 ? 'No answer' : `HTTP ${a.statusCode}`}</span> ·{' '}
                          {formatDateTime(a.attemptTime ? timestampDate(a.attemptTime) : undefined)} · {a.durationMs} ms
                          {a.error && <span className="field-error"> · {a.error}</span>}
                          {a.responseExcerpt && <pre className="email-body">{a.responseExcerpt}</pre>}
                        </li>
                      ))}
                    </ol>
                  </details>
                )}
                <details className="email-content">
                  <summary>Payload</summary>
                  <pre className="email-body">{d.payload}</pre>
                </details>
                {(d.state === WebhookDeliveryState.SENT || d.state === WebhookDeliveryState.FAILED) && (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline"
                    disabled={resending !== null}
                    onClick={() => void resend(d)}
                    aria-label={`Resend ${eventLabel(d.eventType)}${d.trackingNumber ? ` of ${d.trackingNumber}` : ''}`}
                  >
                    Resend
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && (
        <button type="button" className="btn btn-sm btn-outline" onClick={loadMore} disabled={loading}>
          Load more
        </button>
      )}
    </section>
  );
}
