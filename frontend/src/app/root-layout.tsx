import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '@/components/layout/Footer';
import { Header } from '@/components/layout/Header';
import { ThemeToggle } from '@/components/layout/ThemeToggle';
import { ToastHost } from '@/components/layout/ToastHost';
import { PageSpinner } from '@/components/ui/Spinner';
import { useScrollToHash } from '@/hooks/use-scroll-to-hash';
import { useScrollToTopOnNavigate } from '@/hooks/use-scroll-to-top-on-navigate';
import { RouteErrorBoundary } from './route-error-boundary';

/** Header, page, footer, the floating theme switch and the top-right toasts. */
export function RootLayout() {
  const { pathname } = useLocation();
  useScrollToTopOnNavigate();
  // In the layout, not the page: it runs while a lazily loaded page is still on its way.
  useScrollToHash();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
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
