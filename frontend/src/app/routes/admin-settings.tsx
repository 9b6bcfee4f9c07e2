import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { SettingsPage } from '@/features/admin-settings/components/SettingsPage';

/** /administration_and_development/settings: which events send tracking e-mails to whom. */
export default function AdminSettingsPage() {
  useDocumentTitle('Settings');
  const user = useOutletContext<User>();
  if (!may(user, Permission.settingsManage)) return <NotPermitted />;
  return <SettingsPage />;
}
