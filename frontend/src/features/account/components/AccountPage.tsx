import type { User } from '@/gen/logistics/v1/user_pb';
import { EmailAddress } from '@/components/ui/Bidi';
import { AppearanceCard } from './AppearanceCard';
import { ChangePasswordForm } from './ChangePasswordForm';
import { SessionsCard } from './SessionsCard';
import './account.css';

/** The signed-in user's own account, whatever their role: password, sessions, language, theme. */
export function AccountPage({ user }: { user: User }) {
  return (
    <div className="account-page">
      <div className="admin-page-head">
        <h1>Your Account</h1>
      </div>
      <p className="account-who">
        {user.name && <strong>{user.name}</strong>} <EmailAddress address={user.email} />
      </p>
      <div className="account-grid">
        <ChangePasswordForm />
        <SessionsCard />
        <AppearanceCard />
      </div>
    </div>
  );
}
