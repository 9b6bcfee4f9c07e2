import { lazy, Suspense } from 'react';
import { Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { Spinner } from '@/components/ui/Spinner';
import { AdminBar } from '@/features/admin-session/components/AdminBar';
import { RequireStaff } from '@/features/admin-session/components/RequireStaff';
import { useStoredTheme } from '@/features/preferences/hooks/use-stored-theme';
import { useShipmentChanges } from '@/features/shipment-changes/hooks/use-shipment-changes';
import { may, Permission } from '@/config/permissions';
import { useMessages } from '@/lib/i18n';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

const AdminShipmentsPage = lazy(() => import('./admin-shipments'));
const AdminUsersPage = lazy(() => import('./admin-users'));
const AdminEmailsPage = lazy(() => import('./admin-emails'));
const AdminSettingsPage = lazy(() => import('./admin-settings'));
const AdminAuditPage = lazy(() => import('./admin-audit'));
const AdminWebhooksPage = lazy(() => import('./admin-webhooks'));
const AdminLabelsPage = lazy(() => import('./admin-labels'));
const AdminImportPage = lazy(() => import('./admin-import'));
const AdminAccountPage = lazy(() => import('./admin-account'));
const AdminCustomersPage = lazy(() => import('./admin-customers'));
const AdminCustomerPage = lazy(() => import('./admin-customer'));
const AdminAccountRequestsPage = lazy(() => import('./admin-account-requests'));
const AdminPickupsPage = lazy(() => import('./admin-pickups'));
const AdminExceptionsPage = lazy(() => import('./admin-exceptions'));
const AdminApiKeysPage = lazy(() => import('./admin-api-keys'));
const AdminRatesPage = lazy(() => import('./admin-rates'));
const AdminRateCardPage = lazy(() => import('./admin-rate-card'));
const NotFoundPage = lazy(() => import('./not-found'));

/** The sections of the admin area, relative to it; each page is its own chunk. */
const ADMIN_PAGES: RouteObject[] = [
  { index: true, element: <AdminShipmentsPage /> },
  { path: 'users', element: <AdminUsersPage /> },
  { path: 'emails', element: <AdminEmailsPage /> },
  { path: 'settings', element: <AdminSettingsPage /> },
  { path: 'audit', element: <AdminAuditPage /> },
  { path: 'webhooks', element: <AdminWebhooksPage /> },
  { path: 'labels', element: <AdminLabelsPage /> },
  { path: 'import', element: <AdminImportPage /> },
  { path: 'account', element: <AdminAccountPage /> },
  { path: 'customers', element: <AdminCustomersPage /> },
  { path: 'customers/requests', element: <AdminAccountRequestsPage /> },
  { path: 'customers/:id', element: <AdminCustomerPage /> },
  { path: 'pickups', element: <AdminPickupsPage /> },
  { path: 'exceptions', element: <AdminExceptionsPage /> },
  { path: 'api-keys', element: <AdminApiKeysPage /> },
  { path: 'rates', element: <AdminRatesPage /> },
  { path: 'rates/:id', element: <AdminRateCardPage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** /administration_and_development/*: the guard, the admin bar, then the section's page. The
 * signed-in user is passed to the pages as the outlet context. */
export default function AdminLayout() {
  // The shipment components shared with the tracking page (status badges, history, packages)
  // take their words from its catalogue: loaded before any admin page shows, so none of them
  // suspends the page later, in the middle of a search or a dialog.
  useMessages('track');
  return (
    <DataProvider>
      <RequireStaff>
        {(user) => (
          <div className="admin-area">
            <StoredTheme />
            <ShipmentChanges user={user} />
            <AdminBar user={user} />
            <div className="container admin-main">
              <Suspense
                fallback={
                  <div className="page-spinner">
                    <Spinner size="lg" label="Loading page…" />
                  </div>
                }
              >
                <AdminPages user={user} />
              </Suspense>
            </div>
          </div>
        )}
      </RequireStaff>
    </DataProvider>
  );
}

/** The signed-in user's stored theme, applied and kept up to date. */
function StoredTheme() {
  useStoredTheme();
  return null;
}

/** The open screens follow the shipments' changes (list, figures, exceptions, a shipment's View
 * dialog), for whoever reads shipments (admins, managers, agents); nobody else opens the feed. */
function ShipmentChanges({ user }: { user: User }) {
  useShipmentChanges(may(user, Permission.shipmentsRead));
  return null;
}

/** The section's page for the current address, with the signed-in user as its outlet context. */
function AdminPages({ user }: { user: User }) {
  return useRoutes([{ element: <Outlet context={user} />, children: ADMIN_PAGES }]);
}
