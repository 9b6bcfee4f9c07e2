import { lazy, Suspense } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { Spinner } from '@/components/ui/Spinner';
import { PORTAL_LOGIN_PATH } from '@/config/routes';
import { useNoIndex } from '@/hooks/use-no-index';
import { useMessages } from '@/lib/i18n';
import { RequireCustomer } from '@/features/admin-session/components/RequireCustomer';
import { useLogout } from '@/features/admin-session/hooks/use-session';
import { PortalBar } from '@/features/portal/components/PortalBar';
import { useStoredTheme } from '@/features/preferences/hooks/use-stored-theme';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

const PortalShipmentsPage = lazy(() => import('./portal-shipments'));
const PortalShipmentPage = lazy(() => import('./portal-shipment'));
const PortalBookPage = lazy(() => import('./portal-book'));
const PortalLabelsPage = lazy(() => import('./portal-labels'));
const PortalAddressBookPage = lazy(() => import('./portal-address-book'));
const PortalNotificationsPage = lazy(() => import('./portal-notifications'));
const PortalPickupsPage = lazy(() => import('./portal-pickups'));
const PortalPickupRequestPage = lazy(() => import('./portal-pickup-request'));
const PortalUsersPage = lazy(() => import('./portal-users'));
const PortalApiKeysPage = lazy(() => import('./portal-api-keys'));
const PortalWebhooksPage = lazy(() => import('./portal-webhooks'));
const NotFoundPage = lazy(() => import('./not-found'));

/** The portal's pages, relative to /portal; each is its own chunk. */
const PORTAL_PAGES: RouteObject[] = [
  { index: true, element: <PortalShipmentsPage /> },
  { path: 'shipments/:id', element: <PortalShipmentPage /> },
  { path: 'book', element: <PortalBookPage /> },
  { path: 'labels', element: <PortalLabelsPage /> },
  { path: 'address-book', element: <PortalAddressBookPage /> },
  { path: 'notifications', element: <PortalNotificationsPage /> },
  { path: 'pickups', element: <PortalPickupsPage /> },
  { path: 'pickups/new', element: <PortalPickupRequestPage /> },
  { path: 'users', element: <PortalUsersPage /> },
  { path: 'api-keys', element: <PortalApiKeysPage /> },
  { path: 'webhooks', element: <PortalWebhooksPage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** /portal/*: a customer's user only (the guard sends others away), the portal bar, the page. */
export default function PortalLayout() {
  // The shipment components (status badges, history, packages) take their words from the
  // tracking catalogue: loaded before any page shows, so none suspends later.
  useMessages('track');
  const t = useMessages('portal');
  useNoIndex();
  return (
    <DataProvider>
      <RequireCustomer checking={t('portal.checking_session')}>
        {(user) => (
          <div className="portal-area">
            <StoredTheme />
            <Bar user={user} />
            <div className="container portal-main">
              <Suspense
                fallback={
                  <div className="page-spinner">
                    <Spinner size="lg" label={t('portal.loading_page')} />
                  </div>
                }
              >
                <PortalPages />
              </Suspense>
            </div>
          </div>
        )}
      </RequireCustomer>
    </DataProvider>
  );
}

function Bar({ user }: { user: User }) {
  const { logout, loggingOut } = useLogout(PORTAL_LOGIN_PATH);
  return <PortalBar user={user} onSignOut={logout} signingOut={loggingOut} />;
}

/** The signed-in user's stored theme, applied and kept up to date. */
function StoredTheme() {
  useStoredTheme();
  return null;
}

function PortalPages() {
  return useRoutes(PORTAL_PAGES);
}
