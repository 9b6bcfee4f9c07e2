import { NavLink } from 'react-router-dom';
import { AlertTriangle, Bike, Building2, FileUp, Truck, History, KeyRound, LogOut, Mail, Package, Settings, Tags, UserCircle2, Users, Webhook } from 'lucide-react';
import { Role, type User } from '@/gen/logistics/v1/user_pb';
import { Permission, isStaff, may } from '@/config/permissions';
import {
  ADMIN_ACCOUNT_PATH,
  ADMIN_API_KEYS_PATH,
  ADMIN_AUDIT_PATH,
  ADMIN_CUSTOMERS_PATH,
  ADMIN_WEBHOOKS_PATH,
  ADMIN_EMAILS_PATH,
  ADMIN_EXCEPTIONS_PATH,
  ADMIN_HOME_PATH,
  ADMIN_IMPORT_PATH,
  ADMIN_PICKUPS_PATH,
  ADMIN_RATES_PATH,
  ADMIN_SETTINGS_PATH,
  ADMIN_USERS_PATH,
  COURIER_HOME_PATH,
} from '@/config/routes';
import { useLogout } from '../hooks/use-session';
import { EmailAddress } from '@/components/ui/Bidi';
import './admin-bar.css';

/** The admin area's bar: the sections this user may open, who is signed in, and Log out. */
export function AdminBar({ user }: { user: User }) {
  const { logout, loggingOut } = useLogout();
  const email = user.email;
  const linkClass = ({ isActive }: { isActive: boolean }) => `admin-nav-link${isActive ? ' active' : ''}`;
  return (
    <div className="admin-bar">
      <div className="container admin-bar-inner">
        <p className="admin-bar-title">Admin Dashboard</p>
        <nav aria-label="Admin">
          <ul className="admin-nav">
            {may(user, Permission.shipmentsRead) && (
              <li>
                <NavLink to={ADMIN_HOME_PATH} end className={linkClass}>
                  <Package aria-hidden="true" size={18} />
                  Shipments
                </NavLink>
              </li>
            )}
            {user.role === Role.COURIER && (
              <li>
                {/* A page load, not a route: the courier app is its own page (camera, manifest). */}
                <a href={COURIER_HOME_PATH} className="admin-nav-link">
                  <Bike aria-hidden="true" size={18} />
                  Courier app
                </a>
              </li>
            )}
            {may(user, Permission.shipmentsRead) && (
              <li>
                <NavLink to={ADMIN_EXCEPTIONS_PATH} className={linkClass}>
                  <AlertTriangle aria-hidden="true" size={18} />
                  Exceptions
                </NavLink>
              </li>
            )}
            {may(user, Permission.shipmentsImport) && (
              <li>
                <NavLink to={ADMIN_IMPORT_PATH} className={linkClass}>
                  <FileUp aria-hidden="true" size={18} />
                  Import
                </NavLink>
              </li>
            )}
            {may(user, Permission.customersRead) && (
              <li>
                <NavLink to={ADMIN_CUSTOMERS_PATH} className={linkClass}>
                  <Building2 aria-hidden="true" size={18} />
                  Customers
                </NavLink>
              </li>
            )}
            {may(user, Permission.ratesManage) && (
              <li>
                <NavLink to={ADMIN_RATES_PATH} className={linkClass}>
                  <Tags aria-hidden="true" size={18} />
                  Rates
                </NavLink>
              </li>
            )}
            {may(user, Permission.pickupsManage) && (
              <li>
                <NavLink to={ADMIN_PICKUPS_PATH} className={linkClass}>
                  <Truck aria-hidden="true" size={18} />
                  Pickups
                </NavLink>
              </li>
            )}
            {may(user, Permission.usersRead) && (
              <li>
                <NavLink to={ADMIN_USERS_PATH} className={linkClass}>
                  <Users aria-hidden="true" size={18} />
                  Users
                </NavLink>
              </li>
            )}
            {may(user, Permission.emailsRead) && (
              <li>
                <NavLink to={ADMIN_EMAILS_PATH} className={linkClass}>
                  <Mail aria-hidden="true" size={18} />
                  Emails
                </NavLink>
              </li>
            )}
            {may(user, Permission.settingsManage) && (
              <li>
                <NavLink to={ADMIN_SETTINGS_PATH} className={linkClass}>
                  <Settings aria-hidden="true" size={18} />
                  Settings
                </NavLink>
              </li>
            )}
            {may(user, Permission.auditRead) && (
              <li>
                <NavLink to={ADMIN_AUDIT_PATH} className={linkClass}>
                  <History aria-hidden="true" size={18} />
                  Audit
                </NavLink>
              </li>
            )}
            {isStaff(user) && (
              <li>
                <NavLink to={ADMIN_API_KEYS_PATH} className={linkClass}>
                  <KeyRound aria-hidden="true" size={18} />
                  API keys
                </NavLink>
              </li>
            )}
            {may(user, Permission.webhooksManage) && (
              <li>
                <NavLink to={ADMIN_WEBHOOKS_PATH} className={linkClass}>
                  <Webhook aria-hidden="true" size={18} />
                  Webhooks
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="admin-user">
          {/* Who is signed in, and the way to their account page (password, sessions, theme). */}
          <NavLink
            to={ADMIN_ACCOUNT_PATH}
            className={({ isActive }) => `admin-user-email admin-account-link${isActive ? ' active' : ''}`}
            data-testid="admin-user-email"
            title={`Your account (${email})`}
          >
            <UserCircle2 aria-hidden="true" size={18} />
            <span className="visually-hidden">Your account, signed in as </span>
            <span className="admin-user-address">
              <EmailAddress address={email} />
            </span>
          </NavLink>
          <button type="button" className="btn btn-outline btn-sm" onClick={logout} disabled={loggingOut}>
            <LogOut aria-hidden="true" size={16} />
            {loggingOut ? 'Logging out...' : 'Log out'}
          </button>
        </div>
      </div>
    </div>
  );
}
