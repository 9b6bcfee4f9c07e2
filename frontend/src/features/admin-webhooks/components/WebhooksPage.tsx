import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { RefreshCw } from 'lucide-react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { ErrorAlert } from '@/components/ui/ErrorAlert';
import { Field } from '@/components/ui/Field';
import { fieldInputProps } from '@/components/ui/field-input-props';
import { Spinner } from '@/components/ui/Spinner';
import {
  WebhookDeliveryState,
  WebhookEventType,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@/gen/logistics/v1/webhook_service_pb';
import { fieldViolations, serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { formatDateTime } from '@/utils/format';
import {
  ROTATION_OVERLAP_HOURS,
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  resendDelivery,
  rotateSecret,
  sendTestEvent,
  setEndpointEnabled,
} from '../api/webhooks';

/** What an endpoint can subscribe to, in the words the screen shows. */
const EVENTS: ReadonlyArray<{ type: WebhookEventType; label: string; name: string }> = [
  { type: WebhookEventType.SHIPMENT_CREATED, label: 'Shipment created', name: 'shipment.created' },
  { type: WebhookEventType.SHIPMENT_STATUS_CHANGED, label: 'Status changed', name: 'shipment.status_changed' },
  { type: WebhookEventType.SHIPMENT_DELIVERED, label: 'Delivered', name: 'shipment.delivered' },
  { type: WebhookEventType.SHIPMENT_UPDATED, label: 'Shipment updated', name: 'shipment.updated' },
  { type: WebhookEventType.SHIPMENT_DELETED, label: 'Shipment deleted', name: 'shipment.deleted' },
];

function eventLabel(type: WebhookEventType): string {
  if (type === WebhookEventType.TEST) return 'Test event';
  return EVENTS.find((e) => e.type === type)?.label ?? 'Event';
}

const DELIVERY_STATES: Record<number, { label: string; tone: string }> = {
  [WebhookDeliveryState.QUEUED]: { label: 'Queued', tone: 'grey' },
  [WebhookDeliveryState.SENDING]: { label: 'Sending', tone: 'blue' },
  [WebhookDeliveryState.SENT]: { label: 'Sent', tone: 'green' },
  [WebhookDeliveryState.RETRYING]: { label: 'Retrying', tone: 'yellow' },
  [WebhookDeliveryState.FAILED]: { label: 'Failed', tone: 'red' },
};

type EndpointForm = { url: string; events: string[]; description: string };
const EMPTY_FORM: EndpointForm = { url: '', events: EVENTS.map((e) => e.name), description: '' };

/** A secret just made: shown once, with a way to copy it. */
type ShownSecret = { url: string; secret: string };

/** Webhooks: the endpoints, a form to add one, and each endpoint's deliveries. */
export function WebhooksPage() {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);

  // Sets state only once the answer is in: the first load runs from an effect.
  const fetchEndpoints = useCallback(
    (signal?: AbortSignal) =>
      listEndpoints(signal)
        .then(
          (shown) => setEndpoints(shown),
          (err: unknown) => {
            if (!signal?.aborted) setError(serverMessage(err, 'Failed to load webhook endpoints'));
          },
        )
        .finally(() => {
          if (!signal?.aborted) setLoading(false);
        }),
    [],
  );

  useEffect(() => {
    const controller = new AbortController();
    void fetchEndpoints(controller.signal);
    return () => controller.abort();
  }, [fetchEndpoints]);

  const reload = () => {
    setLoading(true);
    setError(null);
    void fetchEndpoints();
  };

  const replace = (updated: WebhookEndpoint) => setEndpoints((shown) => shown.map((e) => (e.id === updated.id ? updated : e)));

  return (
    <div className="admin-webhooks">
      <div className="admin-page-head">
        <h1>Webhooks</h1>
        <div className="admin-page-actions">
          <button type="button" className="btn btn-outline" onClick={reload} disabled={loading}>
            <RefreshCw className={loading ? 'icon-spin' : undefined} aria-hidden="true" size={18} />
            Refresh
          </button>
        </div>
      </div>
      <p className="muted">
        Your other systems (an ERP, a shop, a CRM) are told when a shipment changes: a signed JSON POST per event, retried
        for a day. The README shows how a receiver checks the signature.
      </p>
      {secret && <SecretPanel shown={secret} onDismiss={() => setSecret(null)} />}
      <NewEndpointForm
        onAdded={(endpoint, key) => {
          setEndpoints((shown) => [...shown, endpoint]);
          setSecret({ url: endpoint.url, secret: key });
        }}
      />
      {error && <ErrorAlert message={error} />}
      {loading && endpoints.length === 0 ? (
        <Spinner label="Loading webhook endpoints…" />
      ) : endpoints.length === 0 ? (
        !error && <p className="empty-state">No webhook endpoints yet.</p>
      ) : (
        <ul className="webhook-list" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              onChanged={replace}
              onDeleted={() => setEndpoints((shown) => shown.filter((e) => e.id !== endpoint.id))}
              onSecret={(key) => setSecret({ url: endpoint.url, secret: key })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function SecretPanel({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      toast.success('Secret copied');
    } catch {
      toast.error('Copy failed; select the secret and copy it by hand');
    }
  };
  return (
    <section className="card webhook-secret" aria-labelledby="webhook-secret-title" role="status">
      <h2 id="webhook-secret-title">Signing secret</h2>
      <p>
        For <span className="mono">{shown.url}</span>. It is shown this once: store it in the receiving system now.
      </p>
      <code className="webhook-secret-value" data-testid="webhook-secret">
        {shown.secret}
      </code>
      <div className="admin-page-actions">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" className="btn btn-outline btn-sm" onClick={onDismiss}>
          Done
        </button>
      </div>
    </section>
  );
}

function NewEndpointForm({ onAdded }: { onAdded: (endpoint: WebhookEndpoint, secret: string) => void }) {
  const form = useForm<EndpointForm>({ defaultValues: EMPTY_FORM });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    try {
      const created = await createEndpoint({
        url: values.url.trim(),
        events: EVENTS.filter((e) => values.events.includes(e.name)).map((e) => e.type),
        description: values.description.trim(),
      });
      if (created.endpoint) onAdded(created.endpoint, created.secret);
      form.reset(EMPTY_FORM);
      toast.success('Webhook endpoint added');
    } catch (err) {
      const violations = fieldViolations(err);
      for (const v of violations) {
        const field = v.field === 'events' || v.field === 'description' ? v.field : 'url';
        form.setError(field, { message: v.description });
      }
      if (violations.length === 0) toast.error(serverMessage(err, 'Failed to add the webhook endpoint'));
    }
  });
  const urlError = errors.url?.message;
  const eventsError = errors.events?.message;
  const descriptionError = errors.description?.message;
  return (
    <form className="card webhook-form" onSubmit={submit} aria-labelledby="webhook-form-title" noValidate>
      <h2 id="webhook-form-title">Add an endpoint</h2>
      <Field id="webhook-url" label="URL" error={urlError} hint="https://, on a public address">
        <input
          type="url"
          className="input"
          inputMode="url"
          autoComplete="off"
          placeholder="https://erp.example.com/webhooks"
          {...fieldInputProps('webhook-url', urlError, 'https://, on a public address')}
          {...form.register('url', { required: 'is required' })}
        />
      </Field>
      <fieldset className="webhook-events" aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
        <legend className="field-label">Events</legend>
        {EVENTS.map((event) => (
          <label key={event.name} className="checkbox-row">
            <input
              type="checkbox"
              value={event.name}
              {...form.register('events', { validate: (v) => v.length > 0 || 'must name at least one event' })}
            />
            {event.label}
          </label>
        ))}
        {eventsError && (
          <p id="webhook-events-error" className="field-error">
            {eventsError}
          </p>
        )}
      </fieldset>
      <Field id="webhook-description" label="Description (optional)" error={descriptionError}>
        <input
          type="text"
          className="input"
          maxLength={200}
          {...fieldInputProps('webhook-description', descriptionError)}
          {...form.register('description')}
        />
      </Field>
      <div className="admin-page-actions">
        <button type="submit" className="btn btn-primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Adding…' : 'Add endpoint'}
        </button>
      </div>
    </form>
  );
}

type EndpointCardProps = {
  endpoint: WebhookEndpoint;
  onChanged: (endpoint: WebhookEndpoint) => void;
  onDeleted: () => void;
  onSecret: (secret: string) => void;
};

function EndpointCard({ endpoint, onChanged, onDeleted, onSecret }: EndpointCardProps) {
  const [busy, setBusy] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [deliveriesVersion, setDeliveriesVersion] = useState(0);
  const act = async (work: () => Promise<void>, failure: string) => {
    if (busy) return;
    setBusy(true);
    try {
      await work();
    } catch (err) {
      toast.error(serverMessage(err, failure));
    } finally {
      setBusy(false);
    }
  };
  const name = endpoint.description || endpoint.url;
  const overlapEnds = endpoint.previousSecretExpireTime ? timestampDate(endpoint.previousSecretExpireTime) : undefined;

  return (
    <li className="card webhook-item" data-endpoint-id={endpoint.id}>
      <div className="email-head">
        <span className={`status-pill tone-${endpoint.enabled ? 'green' : 'red'}`}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
        <strong className="webhook-url">{endpoint.url}</strong>
        {endpoint.description && <span className="muted">{endpoint.description}</span>}
      </div>
      <dl className="email-meta">
        <div>
          <dt>Events</dt>
          <dd>{endpoint.events.map(eventLabel).join(', ')}</dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>{formatDateTime(endpoint.createTime ? timestampDate(endpoint.createTime) : undefined)}</dd>
        </div>
        {endpoint.failingSince && (
          <div>
            <dt>Failing since</dt>
            <dd className="field-error">{formatDateTime(timestampDate(endpoint.failingSince))}</dd>
          </div>
        )}
        {overlapEnds && (
          <div>
            <dt>Previous secret signs until</dt>
            <dd>{formatDateTime(overlapEnds)}</dd>
          </div>
        )}
        {!endpoint.enabled && endpoint.disabledReason && (
          <div>
            <dt>Why disabled</dt>
            <dd>{endpoint.disabledReason}</dd>
          </div>
        )}
      </dl>
      <div className="admin-page-actions webhook-actions">
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={busy || !endpoint.enabled}
          aria-label={`Send test event to ${name}`}
          onClick={() =>
            void act(async () => {
              await sendTestEvent(endpoint.id);
              toast.success('Test event queued');
              setShowDeliveries(true);
              setDeliveriesVersion((v) => v + 1);
            }, 'Failed to send the test event')
          }
        >
          Send test event
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-expanded={showDeliveries}
          aria-controls={`deliveries-${endpoint.id}`}
          onClick={() => setShowDeliveries((shown) => !shown)}
          aria-label={`${showDeliveries ? 'Hide' : 'Show'} deliveries of ${name}`}
        >
          {showDeliveries ? 'Hide deliveries' : 'Deliveries'}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={busy}
          aria-label={`Rotate secret of ${name}`}
          onClick={() =>
            void act(async () => {
              if (!window.confirm(`Make a new secret? The current one keeps signing for ${ROTATION_OVERLAP_HOURS} hours.`)) return;
              const rotated = await rotateSecret(endpoint.id);
              if (rotated.endpoint) onChanged(rotated.endpoint);
              onSecret(rotated.secret);
            }, 'Failed to rotate the secret')
          }
        >
          Rotate secret
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={busy}
          aria-label={`${endpoint.enabled ? 'Disable' : 'Enable'} ${name}`}
          onClick={() =>
            void act(async () => {
              onChanged(await setEndpointEnabled(endpoint.id, !endpoint.enabled));
              toast.success(endpoint.enabled ? 'Endpoint disabled' : 'Endpoint enabled');
            }, 'Failed to change the endpoint')
          }
        >
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-danger"
          disabled={busy}
          aria-label={`Delete ${name}`}
          onClick={() =>
            void act(async () => {
              if (!window.confirm('Delete this endpoint and the deliveries waiting for it?')) return;
              await deleteEndpoint(endpoint.id);
              onDeleted();
              toast.success('Endpoint deleted');
            }, 'Failed to delete the endpoint')
          }
        >
          Delete
        </button>
      </div>
      {showDeliveries && <Deliveries key={deliveriesVersion} endpoint={endpoint} />}
    </li>
  );
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>([]);
  const [next, setNext] = useState('');
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [resending, setResending] = useState<string | null>(null);

  // Sets state only once the answer is in: the first page loads from an effect.
  const fetchPage = useCallback(
    (pageToken: string, signal?: AbortSignal) =>
      listDeliveries(endpoint.id, pageToken, signal)
        .then(
          (page) => {
            setDeliveries((shown) => (pageToken ? [...shown, ...page.deliveries] : page.deliveries));
            setNext(page.nextPageToken);
          },
          (err: unknown) => {
            if (!signal?.aborted) setError(serverMessage(err, 'Failed to load deliveries'));
          },
        )
        .finally(() => {
          if (!signal?.aborted) setLoading(false);
        }),
    [endpoint.id],
  );

  useEffect(() => {
    const controller = new AbortController();
    void fetchPage('', controller.signal);
    return () => controller.abort();
  }, [fetchPage]);

  const load = (pageToken: string) => {
    setLoading(true);
    setError(null);
    void fetchPage(pageToken);
  };

  const resend = async (delivery: WebhookDelivery) => {
    if (resending) return;
    setResending(delivery.id);
    try {
      const queued = await resendDelivery(delivery.id);
      setDeliveries((shown) => shown.map((d) => (d.id === queued.id ? queued : d)));
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
        <button type="button" className="btn btn-sm btn-outline" onClick={() => load('')} disabled={loading}>
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
      {next && (
        <button type="button" className="btn btn-sm btn-outline" onClick={() => load(next)} disabled={loading}>
          Load more
        </button>
      )}
    </section>
  );
}
