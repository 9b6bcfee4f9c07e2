// The roles an admin assigns, in the words the Users page shows, and the permissions in words.
import { Role } from '@/gen/logistics/v1/user_pb';

export const ROLES: ReadonlyArray<{ role: Role; label: string; hint: string }> = [
  { role: Role.USER, label: 'User', hint: 'no back-office access' },
  { role: Role.COURIER, label: 'Courier', hint: 'finds shipments, records their events and deliveries on the road' },
  { role: Role.AGENT, label: 'Agent', hint: 'finds shipments, updates their status, records deliveries' },
  { role: Role.MANAGER, label: 'Manager', hint: 'shipments, import and export, labels, the dashboard; reads users' },
  { role: Role.ADMIN, label: 'Admin', hint: 'everything' },
];

export function roleLabel(role: Role): string {
  return ROLES.find((r) => r.role === role)?.label ?? 'Unknown';
}

const PERMISSION_LABELS: Record<string, string> = {
  'shipments.read': 'Find and view shipments',
  'shipments.track': 'Change status and location',
  'shipments.create': 'Create shipments',
  'shipments.edit': 'Edit shipment details',
  'shipments.delete': 'Delete shipments',
  'shipments.export': 'Export shipments as CSV',
  'shipments.import': 'Import shipments from CSV',
  'labels.print': 'Print labels and waybills',
  'deliveries.record': 'Record proof of delivery',
  'dashboard.read': 'See the dashboard figures',
  'users.read': 'See users',
  'users.manage': 'Create, disable and change users',
  'emails.read': 'See e-mails',
  'emails.send': 'Retry e-mails and send the e-mail test',
  'settings.manage': 'Change settings',
  'audit.read': 'Read the audit log',
  'webhooks.manage': 'Manage webhooks',
  'customers.read': 'See customers',
  'customers.manage': 'Create, edit and suspend customers; invite their users',
  'pickups.manage': 'See, assign, confirm and collect pickups',
  'rates.manage': 'Edit rate cards and preview their quotes',
  'exceptions.manage': 'Assign and resolve exceptions',
};

export function permissionLabel(permission: string): string {
  return PERMISSION_LABELS[permission] ?? permission;
}
