import { useDocumentTitle } from '@/hooks/use-document-title';
import { EmailsPage } from '@/features/admin-emails/components/EmailsPage';

/** /administration_and_development/emails: the e-mail outbox. */
export default function AdminEmailsPage() {
  useDocumentTitle('Emails');
  return <EmailsPage />;
}
