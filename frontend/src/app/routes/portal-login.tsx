import { Link, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { PageHero } from '@/components/ui/PageHero';
import { isCustomerUser } from '@/config/permissions';
import { portalNextPath } from '@/config/quote-links';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useNoIndex } from '@/hooks/use-no-index';
import { useMessages } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import { LoginForm } from '@/features/admin-session/components/LoginForm';
import { useSession } from '@/features/admin-session/hooks/use-session';
import { homePathOf } from '@/features/admin-session/utils/home-path';
import type { InvitedState } from '@/features/portal/components/InvitationPage';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

/** /portal/login: the customers' sign-in, the staff login's form in the visitor's language;
 * signed in → the portal, or the portal page its `next` names (a booking from a quote); staff:
 * the back office. */
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
  const next = portalNextPath(useSearchParams()[0].get('next'));
  const { path } = useLanguage();
  if (session.status === 'signed-in') {
    return <Navigate to={next && isCustomerUser(session.user) ? next : homePathOf(session.user)} replace />;
  }
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
        <p className="login-ask-account">
          <Trans id="portal.login.no_account" components={{ link: <Link to={path('/ship-with-us')} /> }} />
        </p>
      </div>
    </>
  );
}
