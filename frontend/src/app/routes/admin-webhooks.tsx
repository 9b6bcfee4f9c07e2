import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { WebhookService } from '@/gen/logistics/v1/webhook_service_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { WebhooksPage } from '@/features/webhooks/components/WebhooksPage';
import type { WebhookWords } from '@/features/webhooks/components/words';

const WORDS: WebhookWords = {
  title: 'Webhooks',
  intro:
    'Your other systems (an ERP, a shop, a CRM) are told when a shipment changes: a signed JSON POST per event, retried for a day. The README shows how a receiver checks the signature.',
  notAllowed: 'You do not have permission to view this page. Ask an administrator if you need it.',
  refresh: 'Refresh',
  loading: 'Loading webhook endpoints…',
  loadFailed: 'Failed to load webhook endpoints',
  empty: 'No webhook endpoints yet.',
  listLabel: 'Webhook endpoints',
  cancel: 'Cancel',

  formTitle: 'Add an endpoint',
  url: 'URL',
  // True however the server is set: private networks are refused unless WEBHOOK_ALLOW_PRIVATE_NETWORKS.
  urlHint: 'https:// (or http://); a private network address only where the server allows it',
  urlRequired: 'is required',
  events: 'Events',
  eventsRequired: 'must name at least one event',
  description: 'Description (optional)',
  add: 'Add endpoint',
  adding: 'Adding…',
  added: 'Webhook endpoint added',
  addFailed: 'Failed to add the webhook endpoint',
  event: {
    'shipment.created': 'Shipment created',
    'shipment.status_changed': 'Status changed',
    'shipment.delivered': 'Delivered',
    'shipment.updated': 'Shipment updated',
    'shipment.deleted': 'Shipment deleted',
    'webhook.test': 'Test event',
  },
  unknownEvent: 'Event',
  listSeparator: ', ',

  secretTitle: 'Signing secret',
  secretFor: (url) => <>For {url}. It is shown this once: store it in the receiving system now.</>,
  copySecret: 'Copy secret',
  copied: 'Secret copied',
  copyFailed: 'Copy failed; select the secret and copy it by hand',
  done: 'Done',

  enabled: 'Enabled',
  disabled: 'Disabled',
  addedOn: 'Added',
  failingSince: 'Failing since',
  previousSecretUntil: 'Previous secret signs until',
  whyDisabled: 'Why disabled',
  sendTest: 'Send test event',
  sendTestTo: (name) => `Send test event to ${name}`,
  testQueued: 'Test event queued',
  testFailed: 'Failed to send the test event',
  deliveries: 'Deliveries',
  hideDeliveries: 'Hide deliveries',
  showDeliveriesOf: (name) => `Show deliveries of ${name}`,
  hideDeliveriesOf: (name) => `Hide deliveries of ${name}`,
  rotate: 'Rotate secret',
  rotateOf: (name) => `Rotate secret of ${name}`,
  rotateTitle: (name) => `Rotate the secret of ${name}?`,
  rotateQuestion: (hours) => `Make a new secret? The current one keeps signing for ${hours} hours.`,
  rotateFailed: 'Failed to rotate the secret',
  enable: 'Enable',
  disable: 'Disable',
  enableNamed: (name) => `Enable ${name}`,
  disableNamed: (name) => `Disable ${name}`,
  endpointEnabled: 'Endpoint enabled',
  endpointDisabled: 'Endpoint disabled',
  changeFailed: 'Failed to change the endpoint',
  delete: 'Delete',
  deleteNamed: (name) => `Delete ${name}`,
  deleteTitle: (name) => `Delete ${name}?`,
  deleteQuestion: 'Delete this endpoint and the deliveries waiting for it?',
  deleted: 'Endpoint deleted',
  deleteFailed: 'Failed to delete the endpoint',

  deliveriesTo: (url) => `Deliveries to ${url}`,
  refreshDeliveries: 'Refresh deliveries',
  loadingDeliveries: 'Loading deliveries…',
  deliveriesFailed: 'Failed to load deliveries',
  noDeliveries: 'No deliveries yet.',
  state: { queued: 'Queued', sending: 'Sending', sent: 'Sent', retrying: 'Retrying', failed: 'Failed' },
  unknownState: 'Unknown',
  queued: 'Queued',
  attempts: 'Attempts',
  nextAttempt: 'Next attempt',
  lastError: 'Last error',
  attemptsOf: (count) => `Attempts (${count})`,
  noAnswer: 'No answer',
  durationMs: (ms) => `${ms} ms`,
  payload: 'Payload',
  resend: 'Resend',
  resendNamed: (event, trackingNumber) => `Resend ${event}${trackingNumber ? ` of ${trackingNumber}` : ''}`,
  resent: 'Delivery queued again',
  resendFailed: 'Failed to resend the delivery',
  loadMore: 'Load more',
};

/** /administration_and_development/webhooks: where the company's other systems are told. */
export default function AdminWebhooksPage() {
  useDocumentTitle(WORDS.title);
  const user = useOutletContext<User>();
  if (!may(user, Permission.webhooksManage)) return <NotPermitted />;
  return <WebhooksPage allowed service={WebhookService} words={WORDS} />;
}
