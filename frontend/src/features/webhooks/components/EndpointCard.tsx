import { useState } from 'react';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { WebhookEndpoint } from '@/gen/logistics/v1/webhook_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { toast } from '@/lib/toast';
import { useConfirm } from '@/hooks/use-confirm';
import { formatDateTime } from '@/utils/format';
import {
  ROTATION_OVERLAP_HOURS,
  useDeleteEndpoint,
  useRotateSecret,
  useSendTestEvent,
  useSetEndpointEnabled,
} from '../hooks/use-webhooks';
import { eventLabel } from '../utils/events';
import { Deliveries } from './Deliveries';
import type { WebhookServiceDesc, WebhookWords } from './words';

type EndpointCardProps = {
  endpoint: WebhookEndpoint;
  service: WebhookServiceDesc;
  words: WebhookWords;
  onSecret: (secret: string) => void;
};

/** One endpoint: what it gets and how it fares, its actions, and its deliveries on request. */
export function EndpointCard({ endpoint, service, words, onSecret }: EndpointCardProps) {
  const [busy, setBusy] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const sendTestEvent = useSendTestEvent(service);
  const rotateSecret = useRotateSecret(service);
  const setEndpointEnabled = useSetEndpointEnabled(service);
  const deleteEndpoint = useDeleteEndpoint(service);
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
        <span className={`status-pill tone-${endpoint.enabled ? 'green' : 'red'}`}>
          {endpoint.enabled ? words.enabled : words.disabled}
        </span>
        <strong className="webhook-url" dir="ltr">
          {endpoint.url}
        </strong>
        {endpoint.description && (
          <bdi className="muted">{endpoint.description}</bdi>
        )}
      </div>
      <dl className="email-meta">
        <div>
          <dt>{words.events}</dt>
          <dd>{endpoint.events.map((type) => eventLabel(words, type)).join(words.listSeparator)}</dd>
        </div>
        <div>
          <dt>{words.addedOn}</dt>
          <dd>{formatDateTime(endpoint.createTime ? timestampDate(endpoint.createTime) : undefined)}</dd>
        </div>
        {endpoint.failingSince && (
          <div>
            <dt>{words.failingSince}</dt>
            <dd className="field-error">{formatDateTime(timestampDate(endpoint.failingSince))}</dd>
          </div>
        )}
        {overlapEnds && (
          <div>
            <dt>{words.previousSecretUntil}</dt>
            <dd>{formatDateTime(overlapEnds)}</dd>
          </div>
        )}
        {!endpoint.enabled && endpoint.disabledReason && (
          <div>
            <dt>{words.whyDisabled}</dt>
            <dd>{endpoint.disabledReason}</dd>
          </div>
        )}
      </dl>
      <div className="admin-page-actions webhook-actions">
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={busy || !endpoint.enabled}
          aria-label={words.sendTestTo(name)}
          onClick={() =>
            void act(async () => {
              await sendTestEvent(endpoint.id);
              toast.success(words.testQueued);
              setShowDeliveries(true);
            }, words.testFailed)
          }
        >
          {words.sendTest}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-expanded={showDeliveries}
          aria-controls={`deliveries-${endpoint.id}`}
          onClick={() => setShowDeliveries((shown) => !shown)}
          aria-label={showDeliveries ? words.hideDeliveriesOf(name) : words.showDeliveriesOf(name)}
        >
          {showDeliveries ? words.hideDeliveries : words.deliveries}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={busy}
          aria-label={words.rotateOf(name)}
          onClick={() =>
            void act(async () => {
              const sure = await ask({
                title: words.rotateTitle(name),
                body: words.rotateQuestion(ROTATION_OVERLAP_HOURS),
                confirmLabel: words.rotate,
                cancelLabel: words.cancel,
              });
              if (!sure) return;
              const rotated = await rotateSecret(endpoint.id);
              onSecret(rotated.secret);
            }, words.rotateFailed)
          }
        >
          {words.rotate}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline"
          disabled={busy}
          aria-label={endpoint.enabled ? words.disableNamed(name) : words.enableNamed(name)}
          onClick={() =>
            void act(async () => {
              await setEndpointEnabled(endpoint.id, !endpoint.enabled);
              toast.success(endpoint.enabled ? words.endpointDisabled : words.endpointEnabled);
            }, words.changeFailed)
          }
        >
          {endpoint.enabled ? words.disable : words.enable}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-danger"
          disabled={busy}
          aria-label={words.deleteNamed(name)}
          onClick={() =>
            void act(async () => {
              const sure = await ask({
                title: words.deleteTitle(name),
                body: words.deleteQuestion,
                confirmLabel: words.delete,
                cancelLabel: words.cancel,
              });
              if (!sure) return;
              await deleteEndpoint(endpoint.id);
              toast.success(words.deleted);
            }, words.deleteFailed)
          }
        >
          {words.delete}
        </button>
      </div>
      {showDeliveries && <Deliveries endpoint={endpoint} service={service} words={words} />}
    </li>
  );
}
