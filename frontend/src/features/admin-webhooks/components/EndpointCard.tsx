import { useState } from 'react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { WebhookEndpoint } from '@/gen/logistics/v1/webhook_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useConfirm } from '@/hooks/use-confirm';
import { formatDateTime } from '@/utils/format';
import { ROTATION_OVERLAP_HOURS } from '../api/webhooks';
import { useDeleteEndpoint, useRotateSecret, useSendTestEvent, useSetEndpointEnabled } from '../hooks/use-webhooks';
import { eventLabel } from '../utils/events';
import { Deliveries } from './Deliveries';

type EndpointCardProps = {
  endpoint: WebhookEndpoint;
  onSecret: (secret: string) => void;
};

/** One endpoint: what it gets and how it fares, its actions, and its deliveries on request. */
export function EndpointCard({ endpoint, onSecret }: EndpointCardProps) {
  const [busy, setBusy] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const sendTestEvent = useSendTestEvent();
  const rotateSecret = useRotateSecret();
  const setEndpointEnabled = useSetEndpointEnabled();
  const deleteEndpoint = useDeleteEndpoint();
  const { ask, dialog } = useConfirm();
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
      {dialog}
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
              const sure = await ask({
                title: `Rotate the secret of ${name}?`,
                body: `Make a new secret? The current one keeps signing for ${ROTATION_OVERLAP_HOURS} hours.`,
                confirmLabel: 'Rotate secret',
              });
              if (!sure) return;
              const rotated = await rotateSecret(endpoint.id);
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
              await setEndpointEnabled({ id: endpoint.id, enabled: !endpoint.enabled });
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
              const sure = await ask({
                title: `Delete ${name}?`,
                body: 'Delete this endpoint and the deliveries waiting for it?',
                confirmLabel: 'Delete',
              });
              if (!sure) return;
              await deleteEndpoint(endpoint.id);
              toast.success('Endpoint deleted');
            }, 'Failed to delete the endpoint')
          }
        >
          Delete
        </button>
      </div>
      {showDeliveries && <Deliveries endpoint={endpoint} />}
    </li>
  );
}
