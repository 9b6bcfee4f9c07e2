import { Navigate } from 'react-router-dom';
import { PageHero } from '@/components/ui/PageHero';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { LoginForm } from '@/features/admin-session/components/LoginForm';
import { useSession } from '@/features/admin-session/hooks/use-session';
import { homePathOf } from '@/features/admin-session/utils/home-path';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

/** /administration_and_development/login: already signed in → the dashboard (a customer's user:
 * the portal). */
export default function AdminLoginPage() {
  return (
    <DataProvider>
      <LoginPage />
    </DataProvider>
  );
}

function LoginPage() {
  useDocumentTitle('Admin Login');
  const session = useSession();
  if (session.status === 'signed-in') return <Navigate to={homePathOf(session.user)} replace />;
  return (
    <>
      <PageHero title="Admin Login" intro="Sign in to manage shipments." />
      <div className="container login-page">
        <LoginForm />
      </div>
    </>
  );
}
