import { lazy, Suspense } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/Spinner';
import { LANGUAGE_PREFIXES } from '@/config/languages';
import { ADMIN_LOGIN_PATH } from '@/config/routes';
import { RootLayout } from './root-layout';
import HomePage from './routes/home';

// Every route but Home is loaded on demand; only the track and admin routes load the Connect client.
const AboutPage = lazy(() => import('./routes/about'));
const ServicesPage = lazy(() => import('./routes/services'));
const ContactPage = lazy(() => import('./routes/contact'));
const TrackPage = lazy(() => import('./routes/track'));
// The admin area is its own chunks, its page table included: public pages never load its code.
const AdminLoginPage = lazy(() => import('./routes/admin-login'));
const AdminLayout = lazy(() => import('./routes/admin-layout'));
// The customers' portal and their invitation page: their own chunks too.
// One chunk for the three, so the first page's table of chunks stays short.
const portal = () => import('./routes/portal-entry');
const PortalLoginPage = lazy(() => portal().then((m) => ({ default: m.PortalLoginPage })));
const PortalLayout = lazy(() => portal().then((m) => ({ default: m.PortalLayout })));
const InvitationPage = lazy(() => portal().then((m) => ({ default: m.InvitationRoute })));
const PrivacyPage = lazy(() => import('./routes/privacy'));
const TermsPage = lazy(() => import('./routes/terms'));
const FaqPage = lazy(() => import('./routes/faq'));
const ShipWithUsPage = lazy(() => import('./routes/ship-with-us'));
const QuotePage = lazy(() => import('./routes/quote'));
const NotFoundPage = lazy(() => import('./routes/not-found'));
// The courier app: its own chunk, outside the site's layout.
const CourierPage = lazy(() => import('./routes/courier'));

/** The route table: every page's path. A plain <BrowserRouter>, not the data router: it is ~17 KB gzip
 * lighter and no route needs loaders or actions. */
/** The visitor's pages: at `/`, and under each language's prefix, where the e-mails of a
 * shipment in that language link (`/es/track/…`). */
const PUBLIC_PAGES: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'about', element: <AboutPage /> },
  { path: 'services', element: <ServicesPage /> },
  { path: 'contact', element: <ContactPage /> },
  { path: 'track/:trackingNumber?', element: <TrackPage /> },
  { path: 'privacy', element: <PrivacyPage /> },
  { path: 'terms', element: <TermsPage /> },
  { path: 'faq', element: <FaqPage /> },
  // Not prerendered and never indexed: a private link.
  { path: 'invitation', element: <InvitationPage /> },
  { path: 'ship-with-us', element: <ShipWithUsPage /> },
  { path: 'quote', element: <QuotePage /> },
];

const ROUTES: RouteObject[] = [
  {
    path: 'courier',
    element: (
      <Suspense fallback={<PageSpinner />}>
        <CourierPage />
      </Suspense>
    ),
  },
  {
    element: <RootLayout />,
    children: [
      ...PUBLIC_PAGES,
      ...LANGUAGE_PREFIXES.map((prefix) => ({ path: prefix, children: PUBLIC_PAGES })),
      { path: 'administration_and_development/login', element: <AdminLoginPage /> },
      // The guard and the section's pages (admin-layout.tsx) send visitors without a staff
      // session to the login.
      { path: 'administration_and_development/*', element: <AdminLayout /> },
      { path: 'portal/login', element: <PortalLoginPage /> },
      // The guard (portal-layout.tsx) sends visitors without a customer's session to its sign-in.
      { path: 'portal/*', element: <PortalLayout /> },
      { path: 'login', element: <Navigate to={ADMIN_LOGIN_PATH} replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** The page for the current location (inside a BrowserRouter, or a StaticRouter when prerendering). */
export function AppRoutes() {
  return useRoutes(ROUTES);
}
