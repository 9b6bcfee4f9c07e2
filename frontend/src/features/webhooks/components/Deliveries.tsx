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
import type { WebhookServiceDesc, WebhookWords } from './words';

type DeliveriesProps = { endpoint: WebhookEndpoint; service: WebhookServiceDesc; words: WebhookWords };

/** An endpoint's deliveries, with Refresh, Resend and Load more. */
export function Deliveries({ endpoint, service, words }: DeliveriesProps) {
  const { deliveries, loading, error, hasMore, reload, loadMore } = useDeliveries(service, endpoint.id, words.deliveriesFailed);
  const resendDelivery = useResendDelivery(service);
  const [resending, setResending] = useState<string | null>(null);

  const resend = async (delivery: WebhookDelivery) => {
    if (resending) return;
    setResending(delivery.id);
    try {
      await resendDelivery(delivery.id);
      toast.success(words.resent);
    } catch (err) {
      toast.error(serverMessage(err, words.resendFailed));
    } finally {
      setResending(null);
    }
  };

  return (
    <section id={`deliveries-${endpoint.id}`} className="webhook-deliveries" aria-label={words.deliveriesTo(endpoint.url)}>
      <div className="admin-page-actions">
        <h3>{words.deliveries}</h3>
        <button type="button" className="btn btn-sm btn-outline" onClick={reload} disabled={loading}>
          <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={16} />
          {words.refreshDeliveries}
        </button>
      </div>
      {error && <ErrorAlert message={error} />}
      {loading && deliveries.length === 0 ? (
        <Spinner label={words.loadingDeliveries} size="sm" />
      ) : deliveries.length === 0 ? (
        !error && <p className="empty-state">{words.noDeliveries}</p>
      ) : (
        <ul className="webhook-delivery-list" aria-busy={loading}>
          {deliveries.map((d) => {
            const state = DELIVERY_STATES[d.state];
            const event = eventLabel(words, d.eventType);
            return (
              <li key={d.id} className="webhook-delivery" data-delivery-id={d.id}>
                <div className="email-head">
                  <span className={`status-pill tone-${state?.tone ?? 'grey'}`}>{state ? words.state[state.name] : words.unknownState}</span>
                  <strong>{event}</strong>
                  {d.trackingNumber && (
                    <span className="mono" dir="ltr">
                      {d.trackingNumber}
                    </span>
                  )}
                </div>
                <dl className="email-meta">
                  <div>
                    <dt>{words.queued}</dt>
                    <dd>{formatDateTime(d.createTime ? timestampDate(d.createTime) : undefined)}</dd>
                  </div>
                  <div>
                    <dt>{words.attempts}</dt>
                    <dd>{d.attempts}</dd>
                  </div>
                  {d.nextAttemptTime && (
                    <div>
                      <dt>{words.nextAttempt}</dt>
                      <dd>{formatDateTime(timestampDate(d.nextAttemptTime))}</dd>
                    </div>
                  )}
                  {d.lastError && (
                    <div>
                      <dt>{words.lastError}</dt>
                      <dd className="field-error">{d.lastError}</dd>
                    </div>
                  )}
                </dl>
                {d.attemptLog.length > 0 && (
                  <details className="email-content">
                    <summary>{words.attemptsOf(d.attemptLog.length)}</summary>
                    <ol className="webhook-attempts">
                      {d.attemptLog.map((a, i) => (
                        <li key={i}>
                          <span className="mono" dir="ltr">
                            {a.statusCode === 0 ? words.noAnswer : `HTTP ${a.statusCode}`}
                          </span>{' '}
                          · {formatDateTime(a.attemptTime ? timestampDate(a.attemptTime) : undefined)} · {words.durationMs(a.durationMs)}
                          {a.error && <span className="field-error"> · {a.error}</span>}
                          {a.responseExcerpt && (
                            <pre className="email-body" dir="ltr">
                              {a.responseExcerpt}
                            </pre>
                          )}
                        </li>
                      ))}
                    </ol>
                  </details>
                )}
                <details className="email-content">
                  <summary>{words.payload}</summary>
                  <pre className="email-body" dir="ltr">
                    {d.payload}
                  </pre>
                </details>
                {(d.state === WebhookDeliveryState.SENT || d.state === WebhookDeliveryState.FAILED) && (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline"
                    disabled={resending !== null}
                    onClick={() => void resend(d)}
                    aria-label={words.resendNamed(event, d.trackingNumber)}
                  >
                    {words.resend}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && (
        <button type="button" className="btn btn-sm btn-outline" onClick={loadMore} disabled={loading}>
          {words.loadMore}
        </button>
      )}
    </section>
  );
}
