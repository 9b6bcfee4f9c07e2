import './portal.css';
import { NavLink } from 'react-router-dom';
import { Bell, BookUser, Building2, KeyRound, LogOut, Package, PackagePlus, Truck, Users, Webhook } from 'lucide-react';
import { Role, type User } from '@/gen/logistics/v1/user_pb';
import { PORTAL_ADDRESS_BOOK_PATH, PORTAL_API_KEYS_PATH, PORTAL_BOOK_PATH, PORTAL_HOME_PATH, PORTAL_NOTIFICATIONS_PATH, PORTAL_PICKUPS_PATH, PORTAL_USERS_PATH, PORTAL_WEBHOOKS_PATH } from '@/config/routes';
import { useMessages } from '@/lib/i18n';
import { useCurrentCustomer } from '../api/portal';

type PortalBarProps = { user: User; onSignOut: () => void; signingOut: boolean };

/** The portal's bar: the customer's name, the sections, who is signed in, and Sign out. */
export function PortalBar({ user, onSignOut, signingOut }: PortalBarProps) {
  const t = useMessages('portal');
  const customer = useCurrentCustomer();
  const linkClass = ({ isActive }: { isActive: boolean }) => `portal-nav-link${isActive ? ' active' : ''}`;
  return (
    <div className="portal-bar">
      <div className="container portal-bar-inner">
        <p className="portal-company" data-testid="portal-company">
          <Building2 aria-hidden="true" size={20} />
          <bdi>{customer.data?.name ?? '\u00a0'}</bdi>
        </p>
        <nav aria-label={t('portal.nav.label')}>
          <ul className="portal-nav">
            <li>
              <NavLink to={PORTAL_HOME_PATH} end className={linkClass}>
                <Package aria-hidden="true" size={18} />
                {t('portal.nav.shipments')}
              </NavLink>
            </li>
            <li>
              <NavLink to={PORTAL_BOOK_PATH} className={linkClass}>
                <PackagePlus aria-hidden="true" size={18} />
                {t('portal.nav.book')}
              </NavLink>
            </li>
            <li>
              <NavLink to={PORTAL_ADDRESS_BOOK_PATH} className={linkClass}>
                <BookUser aria-hidden="true" size={18} />
                {t('portal.nav.address_book')}
              </NavLink>
            </li>
            <li>
              <NavLink to={PORTAL_PICKUPS_PATH} className={linkClass}>
                <Truck aria-hidden="true" size={18} />
                {t('portal.nav.pickups')}
              </NavLink>
            </li>
            <li>
              <NavLink to={PORTAL_NOTIFICATIONS_PATH} className={linkClass}>
                <Bell aria-hidden="true" size={18} />
                {t('portal.nav.notifications')}
              </NavLink>
            </li>
            {user.role === Role.CUSTOMER_ADMIN && (
              <li>
                <NavLink to={PORTAL_USERS_PATH} className={linkClass}>
                  <Users aria-hidden="true" size={18} />
                  {t('portal.nav.users')}
                </NavLink>
              </li>
            )}
            {user.role === Role.CUSTOMER_ADMIN && (
              <li>
                <NavLink to={PORTAL_API_KEYS_PATH} className={linkClass}>
                  <KeyRound aria-hidden="true" size={18} />
                  {t('portal.nav.api_keys')}
                </NavLink>
              </li>
            )}
            {user.role === Role.CUSTOMER_ADMIN && (
              <li>
                <NavLink to={PORTAL_WEBHOOKS_PATH} className={linkClass}>
                  <Webhook aria-hidden="true" size={18} />
                  {t('portal.nav.webhooks')}
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="portal-user">
          <span className="portal-user-name" data-testid="portal-user-name">
            <bdi>{user.name || user.email}</bdi>
          </span>
          <button type="button" className="btn btn-outline btn-sm" onClick={onSignOut} disabled={signingOut}>
            <LogOut aria-hidden="true" size={16} />
            {signingOut ? t('portal.signing_out') : t('portal.sign_out')}
          </button>
        </div>
      </div>
    </div>
  );
}
