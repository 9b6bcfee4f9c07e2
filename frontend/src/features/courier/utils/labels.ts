// The courier app's words for events, reasons and statuses, in the courier's language.
import { ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import type { Translate } from '@/lib/i18n';
import type { AttemptReason, CourierEvent } from './outbox';

/** An event's name in the courier's language (message ids written out for the catalogue check). */
export function eventLabel(t: Translate, event: CourierEvent): string {
  switch (event) {
    case 'picked_up':
      return t('courier.event.picked_up');
    case 'at_hub':
      return t('courier.event.at_hub');
    case 'out_for_delivery':
      return t('courier.event.out_for_delivery');
    case 'delivered':
      return t('courier.event.delivered');
    case 'attempted':
      return t('courier.event.attempted');
  }
}

export function reasonLabel(t: Translate, reason: AttemptReason): string {
  switch (reason) {
    case 'nobody_home':
      return t('courier.event.reason_nobody_home');
    case 'refused':
      return t('courier.event.reason_refused');
    case 'address_problem':
      return t('courier.event.reason_address_problem');
  }
}

export function statusLabel(t: Translate, status: ShipmentStatus): string {
  switch (status) {
    case ShipmentStatus.PENDING:
      return t('courier.status.pending');
    case ShipmentStatus.IN_TRANSIT:
      return t('courier.status.in_transit');
    case ShipmentStatus.DELIVERED:
      return t('courier.status.delivered');
    case ShipmentStatus.DELAYED:
      return t('courier.status.delayed');
    case ShipmentStatus.ON_HOLD:
      return t('courier.status.on_hold');
    default:
      return '';
  }
}
