import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/ui/Spinner';
import { AdminBar } from '@/features/admin-session/components/AdminBar';
import { RequireStaff } from '@/features/admin-session/components/RequireStaff';
import { useStoredTheme } from '@/features/preferences/hooks/use-stored-theme';
import { useMessages } from '@/lib/i18n';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

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
            <AdminBar user={user} />
            <div className="container admin-main">
              <Suspense
                fallback={
                  <div className="page-spinner">
                    <Spinner size="lg" label="Loading page…" />
                  </div>
                }
              >
                <Outlet context={user} />
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
