import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { WebhooksPage } from '@/features/admin-webhooks/components/WebhooksPage';

/** /administration_and_development/webhooks: where the company's other systems are told. */
export default function AdminWebhooksPage() {
  useDocumentTitle('Webhooks');
  const user = useOutletContext<User>();
  if (!may(user, Permission.webhooksManage)) return <NotPermitted />;
  return <WebhooksPage />;
}
