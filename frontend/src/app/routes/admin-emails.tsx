import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { EmailsPage } from '@/features/admin-emails/components/EmailsPage';

/** /administration_and_development/emails: the e-mail outbox. */
export default function AdminEmailsPage() {
  useDocumentTitle('Emails');
  const user = useOutletContext<User>();
  if (!may(user, Permission.emailsRead)) return <NotPermitted />;
  return <EmailsPage canSend={may(user, Permission.emailsSend)} />;
}
