import { DeliveryAttemptFailure } from '@/gen/logistics/v1/shipment_pb';

/** Whether a save records a delivery attempt that failed, and why (the Update Status and Edit
 * dialogs' "Delivery attempt" select). */
export const FAILED_ATTEMPT_OPTIONS: ReadonlyArray<{ value: DeliveryAttemptFailure; label: string }> = [
  { value: DeliveryAttemptFailure.UNSPECIFIED, label: 'No failed attempt' },
  { value: DeliveryAttemptFailure.NOBODY_HOME, label: 'Failed: nobody home' },
  { value: DeliveryAttemptFailure.REFUSED, label: 'Failed: refused' },
  { value: DeliveryAttemptFailure.ADDRESS_PROBLEM, label: 'Failed: address problem' },
];
