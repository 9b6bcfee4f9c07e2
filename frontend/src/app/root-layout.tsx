import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '@/components/layout/Footer';
import { Header } from '@/components/layout/Header';
import { ThemeToggle } from '@/components/layout/ThemeToggle';
import { ToastHost } from '@/components/layout/ToastHost';
import { PageSpinner } from '@/components/ui/Spinner';
import { ADMIN_HOME_PATH, isPortalPath } from '@/config/routes';
import { useScrollToHash } from '@/hooks/use-scroll-to-hash';
import { useScrollToTopOnNavigate } from '@/hooks/use-scroll-to-top-on-navigate';
import { useHydrated } from '@/hooks/use-hydrated';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { offersAnotherLanguage } from '@/lib/language-choice';
import { RouteErrorBoundary } from './route-error-boundary';

// Shown only after hydration and to few visitors: not part of the first download.
const LanguageSuggestion = lazy(() => import('@/components/layout/LanguageSuggestion'));

/** Header, page, footer, the floating theme switch and the top-right toasts. */
export function RootLayout() {
  const t = useMessages('common');
  const { pathname } = useLocation();
  useScrollToTopOnNavigate();
  // In the layout, not the page: it runs while a lazily loaded page is still on its way.
  useScrollToHash();
  // Says the page now answers taps: a tap on the prerendered HTML before this is lost.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        {t('common.skip_to_content')}
      </a>
      {!pathname.startsWith(ADMIN_HOME_PATH) && !isPortalPath(pathname) && <LanguageOffer />}
      <Header />
      <main id="main-content" className="site-main" tabIndex={-1}>
        <RouteErrorBoundary locationKey={pathname}>
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      <ThemeToggle />
      <ToastHost />
    </div>
  );
}

/** The offer of the browser's language, once the page has hydrated. Its own component: the
 * re-render after hydration stays here, away from a page still hydrating (which would then be
 * thrown away and drawn again). */
function LanguageOffer() {
  const { language } = useLanguage();
  const hydrated = useHydrated();
  if (!hydrated || !offersAnotherLanguage(language.code)) return null;
  return (
    <Suspense fallback={null}>
      <LanguageSuggestion />
    </Suspense>
  );
}
