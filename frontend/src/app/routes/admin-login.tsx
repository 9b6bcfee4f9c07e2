import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { COURIER_HOME_PATH } from '@/config/routes';
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
  if (session.status === 'signed-in') {
    const home = homePathOf(session.user);
    return home === COURIER_HOME_PATH ? <LoadPage path={home} /> : <Navigate to={home} replace />;
  }
  return (
    <>
      <PageHero title="Admin Login" intro="Sign in to manage shipments." />
      <div className="container login-page">
        <LoginForm />
      </div>
    </>
  );
}

/** Loads `path` as a new page: the courier app's camera and barcode reader are allowed by the
 * headers of its own page, not those of this one. */
function LoadPage({ path }: { path: string }) {
  useEffect(() => window.location.replace(path), [path]);
  return null;
}
