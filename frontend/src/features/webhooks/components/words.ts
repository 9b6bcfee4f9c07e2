// What differs between the portal's screen and the back office's: the words (the portal's in the
// reader's language, the back office's in English) and the service called.
import type { ReactNode } from 'react';
import type { WebhookService } from '@/gen/logistics/v1/webhook_service_pb';
import type { DeliveryStateName, EventName } from '../utils/events';

/** WebhookService or CustomerWebhookService: the same methods and messages. */
export type WebhookServiceDesc = typeof WebhookService;

export type WebhookWords = {
  title: string;
  intro: string;
  notAllowed: string;
  refresh: string;
  loading: string;
  loadFailed: string;
  empty: string;
  listLabel: string;
  cancel: string;

  formTitle: string;
  url: string;
  urlHint: string;
  urlRequired: string;
  events: string;
  eventsRequired: string;
  description: string;
  add: string;
  adding: string;
  added: string;
  addFailed: string;
  /** Each event an endpoint may want, and the test event, by its name on the wire. */
  event: Record<EventName, string>;
  unknownEvent: string;
  /** Between the events of a list (", " in English, "، " in Arabic). */
  listSeparator: string;

  secretTitle: string;
  /** "For <url>. It is shown this once…", the URL an element of its own. */
  secretFor: (url: ReactNode) => ReactNode;
  copySecret: string;
  copied: string;
  copyFailed: string;
  done: string;

  enabled: string;
  disabled: string;
  addedOn: string;
  failingSince: string;
  previousSecretUntil: string;
  whyDisabled: string;
  sendTest: string;
  sendTestTo: (name: string) => string;
  testQueued: string;
  testFailed: string;
  deliveries: string;
  hideDeliveries: string;
  showDeliveriesOf: (name: string) => string;
  hideDeliveriesOf: (name: string) => string;
  rotate: string;
  rotateOf: (name: string) => string;
  rotateTitle: (name: string) => string;
  rotateQuestion: (hours: number) => string;
  rotateFailed: string;
  enable: string;
  disable: string;
  enableNamed: (name: string) => string;
  disableNamed: (name: string) => string;
  endpointEnabled: string;
  endpointDisabled: string;
  changeFailed: string;
  delete: string;
  deleteNamed: (name: string) => string;
  deleteTitle: (name: string) => string;
  deleteQuestion: string;
  deleted: string;
  deleteFailed: string;

  deliveriesTo: (url: string) => string;
  refreshDeliveries: string;
  loadingDeliveries: string;
  deliveriesFailed: string;
  noDeliveries: string;
  state: Record<DeliveryStateName, string>;
  unknownState: string;
  queued: string;
  attempts: string;
  nextAttempt: string;
  lastError: string;
  attemptsOf: (count: number) => string;
  noAnswer: string;
  durationMs: (ms: number) => string;
  payload: string;
  resend: string;
  resendNamed: (event: string, trackingNumber: string) => string;
  resent: string;
  resendFailed: string;
  loadMore: string;
};
