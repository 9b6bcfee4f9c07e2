import { Navigate, useLocation } from 'react-router-dom';
import { PageHero } from '@/components/ui/PageHero';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useNoIndex } from '@/hooks/use-no-index';
import { useMessages } from '@/lib/i18n';
import { LoginForm } from '@/features/admin-session/components/LoginForm';
import { useSession } from '@/features/admin-session/hooks/use-session';
import { homePathOf } from '@/features/admin-session/utils/home-path';
import type { InvitedState } from '@/features/portal/components/InvitationPage';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

/** /portal/login: the customers' sign-in, the staff login's form in the visitor's language;
 * signed in → the portal (staff: the back office). */
export default function PortalLoginPage() {
  return (
    <DataProvider>
      <LoginPage />
    </DataProvider>
  );
}

function LoginPage() {
  const t = useMessages('portal');
  useDocumentTitle(t('portal.login.title'));
  useNoIndex();
  const session = useSession();
  // After an accepted invitation, its e-mail address.
  const invited = useLocation().state as InvitedState | null;
  if (session.status === 'signed-in') return <Navigate to={homePathOf(session.user)} replace />;
  return (
    <>
      <PageHero title={t('portal.login.title')} intro={t('portal.login.intro')} />
      <div className="container login-page">
        <LoginForm
          initialEmail={invited?.email ?? ''}
          words={{
            email: t('portal.login.email'),
            password: t('portal.login.password'),
            submit: t('portal.login.submit'),
            success: t('portal.login.success'),
          }}
        />
      </div>
    </>
  );
}
