import { NotificationsPage } from '@/features/portal/components/NotificationsPage';

/** /portal/notifications: the user's e-mail notification choices. */
export default function PortalNotificationsPage() {
  return <NotificationsPage />;
}
