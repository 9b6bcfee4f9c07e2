import { CustomerWebhookService } from '@/gen/logistics/v1/customer_webhook_service_pb';
import { Role } from '@/gen/logistics/v1/user_pb';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useSession } from '@/features/admin-session/hooks/use-session';
import { WebhooksPage } from '@/features/webhooks/components/WebhooksPage';
import type { WebhookWords } from '@/features/webhooks/components/words';
import { useMessages, type Translate } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import { formatDecimal } from '@/utils/format';

function portalWords(t: Translate): WebhookWords {
  return {
    title: t('portal.webhooks.title'),
    intro: t('portal.webhooks.intro'),
    notAllowed: t('portal.webhooks.not_allowed'),
    refresh: t('portal.webhooks.refresh'),
    loading: t('portal.webhooks.loading'),
    loadFailed: t('portal.webhooks.load_failed'),
    empty: t('portal.webhooks.empty'),
    listLabel: t('portal.webhooks.list_label'),
    cancel: t('portal.webhooks.cancel'),

    formTitle: t('portal.webhooks.form_title'),
    url: t('portal.webhooks.url'),
    urlHint: t('portal.webhooks.url_hint'),
    urlRequired: t('portal.webhooks.url_required'),
    events: t('portal.webhooks.events'),
    eventsRequired: t('portal.webhooks.events_required'),
    description: t('portal.webhooks.description'),
    add: t('portal.webhooks.add'),
    adding: t('portal.webhooks.adding'),
    added: t('portal.webhooks.added'),
    addFailed: t('portal.webhooks.add_failed'),
    event: {
      'shipment.created': t('portal.webhooks.event_created'),
      'shipment.status_changed': t('portal.webhooks.event_status_changed'),
      'shipment.delivered': t('portal.webhooks.event_delivered'),
      'shipment.updated': t('portal.webhooks.event_updated'),
      'shipment.deleted': t('portal.webhooks.event_deleted'),
      'webhook.test': t('portal.webhooks.event_test'),
    },
    unknownEvent: t('portal.webhooks.event_unknown'),
    listSeparator: t('portal.webhooks.list_separator'),

    secretTitle: t('portal.webhooks.secret_title'),
    secretFor: (url) => <Trans id="portal.webhooks.secret_for" values={{ url }} />,
    copySecret: t('portal.webhooks.copy_secret'),
    copied: t('portal.webhooks.copied'),
    copyFailed: t('portal.webhooks.copy_failed'),
    done: t('portal.webhooks.done'),

    enabled: t('portal.webhooks.enabled'),
    disabled: t('portal.webhooks.disabled'),
    addedOn: t('portal.webhooks.added_on'),
    failingSince: t('portal.webhooks.failing_since'),
    previousSecretUntil: t('portal.webhooks.previous_secret_until'),
    whyDisabled: t('portal.webhooks.why_disabled'),
    sendTest: t('portal.webhooks.send_test'),
    sendTestTo: (name) => t('portal.webhooks.send_test_to', { name }),
    testQueued: t('portal.webhooks.test_queued'),
    testFailed: t('portal.webhooks.test_failed'),
    deliveries: t('portal.webhooks.deliveries'),
    hideDeliveries: t('portal.webhooks.hide_deliveries'),
    showDeliveriesOf: (name) => t('portal.webhooks.show_deliveries_of', { name }),
    hideDeliveriesOf: (name) => t('portal.webhooks.hide_deliveries_of', { name }),
    rotate: t('portal.webhooks.rotate'),
    rotateOf: (name) => t('portal.webhooks.rotate_of', { name }),
    rotateTitle: (name) => t('portal.webhooks.rotate_title', { name }),
    rotateQuestion: (hours) => t('portal.webhooks.rotate_question', { hours: formatDecimal(hours, 0) }),
    rotateFailed: t('portal.webhooks.rotate_failed'),
    enable: t('portal.webhooks.enable'),
    disable: t('portal.webhooks.disable'),
    enableNamed: (name) => t('portal.webhooks.enable_named', { name }),
    disableNamed: (name) => t('portal.webhooks.disable_named', { name }),
    endpointEnabled: t('portal.webhooks.endpoint_enabled'),
    endpointDisabled: t('portal.webhooks.endpoint_disabled'),
    changeFailed: t('portal.webhooks.change_failed'),
    delete: t('portal.webhooks.delete'),
    deleteNamed: (name) => t('portal.webhooks.delete_named', { name }),
    deleteTitle: (name) => t('portal.webhooks.delete_title', { name }),
    deleteQuestion: t('portal.webhooks.delete_question'),
    deleted: t('portal.webhooks.deleted'),
    deleteFailed: t('portal.webhooks.delete_failed'),

    deliveriesTo: (url) => t('portal.webhooks.deliveries_to', { url }),
    refreshDeliveries: t('portal.webhooks.refresh_deliveries'),
    loadingDeliveries: t('portal.webhooks.loading_deliveries'),
    deliveriesFailed: t('portal.webhooks.deliveries_failed'),
    noDeliveries: t('portal.webhooks.no_deliveries'),
    state: {
      queued: t('portal.webhooks.state_queued'),
      sending: t('portal.webhooks.state_sending'),
      sent: t('portal.webhooks.state_sent'),
      retrying: t('portal.webhooks.state_retrying'),
      failed: t('portal.webhooks.state_failed'),
    },
    unknownState: t('portal.webhooks.state_unknown'),
    queued: t('portal.webhooks.queued'),
    attempts: t('portal.webhooks.attempts'),
    nextAttempt: t('portal.webhooks.next_attempt'),
    lastError: t('portal.webhooks.last_error'),
    attemptsOf: (count) => t('portal.webhooks.attempts_of', { count: formatDecimal(count, 0) }),
    noAnswer: t('portal.webhooks.no_answer'),
    durationMs: (ms) => t('portal.webhooks.duration_ms', { ms: formatDecimal(ms, 0) }),
    payload: t('portal.webhooks.payload'),
    resend: t('portal.webhooks.resend'),
    resendNamed: (event, tracking) =>
      tracking ? t('portal.webhooks.resend_named_of', { event, tracking }) : t('portal.webhooks.resend_named', { event }),
    resent: t('portal.webhooks.resent'),
    resendFailed: t('portal.webhooks.resend_failed'),
    loadMore: t('portal.webhooks.load_more'),
  };
}

/** /portal/webhooks: customer admins manage the customer's own endpoints; others are told they cannot. */
export default function PortalWebhooksPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.webhooks.title'));
  const session = useSession();
  // The layout's guard shows pages to a signed-in customer's user only.
  if (session.status !== 'signed-in') return null;
  return (
    <WebhooksPage allowed={session.user.role === Role.CUSTOMER_ADMIN} service={CustomerWebhookService} words={portalWords(t)} />
  );
}
