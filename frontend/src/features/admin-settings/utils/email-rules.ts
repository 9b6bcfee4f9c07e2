// The tracking e-mail rules as the Settings form shows them: one row per event, a checkbox per
// recipient. Pure: no React, no network.
import { ShipmentStatus, TrackingEvent, type TrackingEmailSettings } from '@/gen/logistics/v1/shipment_pb';
import { statusLabel } from '@/utils/shipment';

export type Recipient = 'shipper' | 'receiver' | 'subscribers';
export type EventKey = 'created' | 'inTransit' | 'delayed' | 'onHold' | 'delivered';
type RuleValues = Record<Recipient, boolean>;
export type EmailRuleValues = Record<EventKey, RuleValues>;

type EventRow = { key: EventKey; event: TrackingEvent; label: string; when: string; description: string };

/** The events in the order of a shipment's life. */
export const EVENT_ROWS: readonly EventRow[] = [
  {
    key: 'created',
    event: TrackingEvent.CREATED,
    label: 'Created',
    when: 'when created',
    description: 'The "Shipment Created" and "Package Incoming" e-mails.',
  },
  { key: 'inTransit', event: TrackingEvent.IN_TRANSIT, label: statusLabel(ShipmentStatus.IN_TRANSIT), when: 'when in transit', description: 'The status changes to in transit.' },
  { key: 'delayed', event: TrackingEvent.DELAYED, label: statusLabel(ShipmentStatus.DELAYED), when: 'when delayed', description: 'The status changes to delayed.' },
  { key: 'onHold', event: TrackingEvent.ON_HOLD, label: statusLabel(ShipmentStatus.ON_HOLD), when: 'when on hold', description: 'The status changes to on hold.' },
  { key: 'delivered', event: TrackingEvent.DELIVERED, label: statusLabel(ShipmentStatus.DELIVERED), when: 'when delivered', description: 'The status changes to delivered.' },
];

export const RECIPIENTS: ReadonlyArray<{ key: Recipient; label: string; phrase: string }> = [
  { key: 'shipper', label: 'Shipper', phrase: 'the shipper' },
  { key: 'receiver', label: 'Receiver', phrase: 'the receiver' },
  { key: 'subscribers', label: 'Subscribers', phrase: 'subscribers' },
];

/** Subscribers follow a shipment after it exists: CREATED never e-mails them. */
export function appliesTo(key: EventKey, recipient: Recipient): boolean {
  return !(key === 'created' && recipient === 'subscribers');
}

/** The checkbox's accessible name, e.g. "E-mail the receiver when in transit". */
export function checkboxLabel(row: EventRow, recipient: Recipient): string {
  const phrase = RECIPIENTS.find((r) => r.key === recipient)?.phrase ?? recipient;
  return `E-mail ${phrase} ${row.when}`;
}

/** The form's values; an event the server left out is all off. */
export function toFormValues(settings: TrackingEmailSettings): EmailRuleValues {
  const values = {} as EmailRuleValues;
  for (const row of EVENT_ROWS) {
    const rule = settings.rules.find((r) => r.event === row.event);
    values[row.key] = {
      shipper: rule?.shipper ?? false,
      receiver: rule?.receiver ?? false,
      subscribers: appliesTo(row.key, 'subscribers') && (rule?.subscribers ?? false),
    };
  }
  return values;
}

/** Every event's rule, for UpdateTrackingEmailSettings. */
export function toSettings(values: EmailRuleValues): {
  rules: Array<{ event: TrackingEvent; shipper: boolean; receiver: boolean; subscribers: boolean }>;
} {
  return {
    rules: EVENT_ROWS.map((row) => ({
      event: row.event,
      shipper: values[row.key].shipper,
      receiver: values[row.key].receiver,
      subscribers: appliesTo(row.key, 'subscribers') && values[row.key].subscribers,
    })),
  };
}
