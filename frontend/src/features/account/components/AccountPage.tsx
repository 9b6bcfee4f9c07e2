import type { User } from '@/gen/logistics/v1/user_pb';
import { EmailAddress } from '@/components/ui/Bidi';
import { languageByCode } from '@/config/languages';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useMessagesIn } from '@/lib/i18n';
import { useAccountLanguage } from '../hooks/use-account-language';
import { AppearanceCard } from './AppearanceCard';
import { ChangePasswordForm } from './ChangePasswordForm';
import { SessionsCard } from './SessionsCard';
import './account.css';

/** The signed-in user's own account, whatever their role: password, sessions, language, theme;
 * in the language chosen here (the rest of the back office is in English). */
export function AccountPage({ user }: { user: User }) {
  const [language, setLanguage] = useAccountLanguage();
  const t = useMessagesIn(language, 'account');
  useDocumentTitle(t('account.title'));
  return (
    <div className="account-page" lang={language} dir={languageByCode(language).dir}>
      <div className="admin-page-head">
        <h1>{t('account.title')}</h1>
      </div>
      <p className="account-who">
        {user.name && (
          <strong>
            <bdi>{user.name}</bdi>
          </strong>
        )}{' '}
        <EmailAddress address={user.email} />
      </p>
      <div className="account-grid">
        <ChangePasswordForm t={t} />
        <SessionsCard t={t} language={language} />
        <AppearanceCard t={t} language={language} onLanguage={setLanguage} />
      </div>
    </div>
  );
}
