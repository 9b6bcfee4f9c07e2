// What a signed-in user may do: the names the services check, one per action. The server is
// the authority; the UI only hides what would be refused.
import type { User } from '@/gen/logistics/v1/user_pb';

export const Permission = {
  shipmentsRead: 'shipments.read',
  shipmentsTrack: 'shipments.track',
  shipmentsCreate: 'shipments.create',
  shipmentsEdit: 'shipments.edit',
  shipmentsDelete: 'shipments.delete',
  shipmentsExport: 'shipments.export',
  shipmentsImport: 'shipments.import',
  labelsPrint: 'labels.print',
  deliveriesRecord: 'deliveries.record',
  dashboardRead: 'dashboard.read',
  usersRead: 'users.read',
  usersManage: 'users.manage',
  emailsRead: 'emails.read',
  emailsSend: 'emails.send',
  settingsManage: 'settings.manage',
  auditRead: 'audit.read',
  webhooksManage: 'webhooks.manage',
} as const;

export type Permission = (typeof Permission)[keyof typeof Permission];

export function may(user: User, permission: Permission): boolean {
  return !user.disabled && user.permissions.includes(permission);
}

/** Whether the user has any back-office access at all. */
export function hasOfficeAccess(user: User): boolean {
  return !user.disabled && user.permissions.length > 0;
}
