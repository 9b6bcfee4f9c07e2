import { useCallback, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { LogIn, Menu, X } from 'lucide-react';
import { ADMIN_HOME_PATH, PORTAL_LOGIN_PATH, isPortalPath } from '@/config/routes';
import { useDismiss } from '@/hooks/use-dismiss';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { LanguageMenu } from './LanguageMenu';
import { Logo } from './Logo';
import { NAV_ITEMS } from './nav-links';

const NAV_ID = 'primary-navigation';

/** Sticky site header. On small screens the links collapse behind a menu button. */
export function Header() {
  const t = useMessages('common');
  const { path } = useLanguage();
  const location = useLocation();
  // The admin area is in English only; the portal's language is the one picked, not its path's.
  const isPublic = !location.pathname.startsWith(ADMIN_HOME_PATH) && !isPortalPath(location.pathname);
  // The location the menu was opened at: it closes on a route change.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location.key;
  const setOpen = useCallback((value: boolean) => setOpenAt(value ? location.key : null), [location.key]);
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useDismiss(open, headerRef, toggleRef, () => setOpen(false));

  return (
    <header className="site-header" ref={headerRef}>
      <div className="container header-inner">
        <Link to={path('/')} className="brand-link" aria-label={t('common.nav.home')}>
          <Logo />
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls={NAV_ID}
          aria-label={open ? t('common.menu.close') : t('common.menu.open')}
          onClick={() => setOpen(!open)}
        >
          {open ? <X aria-hidden="true" size={24} /> : <Menu aria-hidden="true" size={24} />}
        </button>
        <nav id={NAV_ID} className={`primary-nav${open ? ' is-open' : ''}`} aria-label={t('common.nav.label')}>
          <ul>
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={path(item.to)}
                  end={item.to === '/'}
                  className={({ isActive }) =>
                    ['nav-link', item.primary ? 'nav-link-primary' : '', isActive ? 'active' : '']
                      .filter(Boolean)
                      .join(' ')
                  }
                  onClick={() => setOpen(false)}
                >
                  {t(item.label)}
                </NavLink>
              </li>
            ))}
          </ul>
          {/* Customers sign in to the portal (the staff path is not shown to visitors). */}
          {isPublic && (
            <Link
              to={PORTAL_LOGIN_PATH}
              className="nav-link nav-link-signin"
              title={t('common.nav.customer_signin')}
              onClick={() => setOpen(false)}
            >
              <LogIn aria-hidden="true" size={18} />
              <span className="nav-signin-text">{t('common.nav.customer_signin')}</span>
            </Link>
          )}
          {isPublic && <LanguageMenu />}
        </nav>
      </div>
    </header>
  );
}
