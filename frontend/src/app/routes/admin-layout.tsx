import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/ui/Spinner';
import { AdminBar } from '@/features/admin-session/components/AdminBar';
import { RequireStaff } from '@/features/admin-session/components/RequireStaff';
import { useStoredTheme } from '@/features/preferences/hooks/use-stored-theme';
import '@/styles/admin.css';

/** /administration_and_development/*: the guard, the admin bar, then the section's page. The
 * signed-in user is passed to the pages as the outlet context. */
export default function AdminLayout() {
  return (
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
  );
}

/** The signed-in user's stored theme, applied and kept up to date. */
function StoredTheme() {
  useStoredTheme();
  return null;
}
