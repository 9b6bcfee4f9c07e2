import { PageHero } from '@/components/ui/PageHero';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function AdminLoginPage() {
  useDocumentTitle('Admin Login');
  return <PageHero title="Admin Login" intro="Sign in to manage shipments." />;
}
