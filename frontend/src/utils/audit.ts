// The audit log's actions in the words the back office shows, shared by the Audit page and a
// shipment's Activity tab.

/** Every action the log records, with the words the page shows for it. */
export const ACTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'shipment.create', label: 'Shipment created' },
  { value: 'shipment.update', label: 'Shipment updated' },
  { value: 'shipment.status_change', label: 'Status changed' },
  { value: 'shipment.delete', label: 'Shipment deleted' },
  { value: 'shipment.batch_update', label: 'Bulk status change' },
  { value: 'shipment.import', label: 'Shipments imported' },
  { value: 'shipment.proof_of_delivery', label: 'Proof of delivery recorded' },
  { value: 'shipment.assign', label: 'Courier assigned' },
  { value: 'user.create', label: 'User created' },
  { value: 'user.role_change', label: 'Role changed' },
  { value: 'user.update', label: 'User updated' },
  { value: 'user.disable', label: 'User disabled' },
  { value: 'user.enable', label: 'User enabled' },
  { value: 'user.password_change', label: 'Password changed' },
  { value: 'session.sign_in', label: 'Signed in' },
  { value: 'session.sign_in_failure', label: 'Sign-in failed' },
  { value: 'email.retry', label: 'E-mail retried' },
  { value: 'settings.update', label: 'Settings changed' },
  { value: 'customer.create', label: 'Customer created' },
  { value: 'customer.update', label: 'Customer updated' },
  { value: 'customer.suspend', label: 'Customer suspended' },
  { value: 'customer.reactivate', label: 'Customer reactivated' },
  { value: 'customer.invite', label: 'User invited' },
  { value: 'customer.request_approve', label: 'Account request approved' },
  { value: 'customer.request_decline', label: 'Account request declined' },
  { value: 'customer.address_book', label: 'Address book changed' },
  { value: 'pickup.request', label: 'Pickup requested' },
  { value: 'pickup.assign', label: 'Pickup assigned' },
  { value: 'pickup.confirm', label: 'Pickup confirmed' },
  { value: 'pickup.collect', label: 'Pickup collected' },
  { value: 'pickup.fail', label: 'Pickup failed' },
  { value: 'api_key.create', label: 'API key created' },
  { value: 'api_key.revoke', label: 'API key revoked' },
  { value: 'rate_card.update', label: 'Rate card updated' },
  { value: 'rate_card.delete', label: 'Rate card deleted' },
  { value: 'shipment.note', label: 'Internal note added' },
  { value: 'exception.assign', label: 'Exception assigned' },
  { value: 'exception.resolve', label: 'Exception resolved' },
];

export function actionLabel(action: string): string {
  return ACTIONS.find((a) => a.value === action)?.label ?? action;
}
