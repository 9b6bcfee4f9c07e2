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
];

export function actionLabel(action: string): string {
  return ACTIONS.find((a) => a.value === action)?.label ?? action;
}
