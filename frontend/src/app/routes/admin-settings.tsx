import { useDocumentTitle } from '@/hooks/use-document-title';
import { SettingsPage } from '@/features/admin-settings/components/SettingsPage';

/** /administration_and_development/settings: which events send tracking e-mails to whom. */
export default function AdminSettingsPage() {
  useDocumentTitle('Settings');
  return <SettingsPage />;
}
