import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router-dom';
import { Footer } from '@/components/layout/Footer';
import { Header } from '@/components/layout/Header';
import { ThemeToggle } from '@/components/layout/ThemeToggle';
import { ToastHost } from '@/components/layout/ToastHost';
import { PageSpinner } from '@/components/ui/Spinner';

/** Header, page, footer, the floating theme switch and the top-right toasts. */
export function RootLayout() {
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <Header />
      <main id="main-content" className="site-main" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <ThemeToggle />
      <ToastHost />
      <ScrollRestoration />
    </div>
  );
}
