import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/ui/Spinner';
import { AdminBar } from '@/features/admin-session/components/AdminBar';
import { RequireAdmin } from '@/features/admin-session/components/RequireAdmin';
import '@/styles/admin.css';

/** /administration_and_development/*: the guard, the admin bar, then the section's page. The
 * signed-in user is passed to the pages as the outlet context. */
export default function AdminLayout() {
  return (
    <RequireAdmin>
      {(user) => (
        <div className="admin-area">
          <AdminBar email={user.email} />
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
    </RequireAdmin>
  );
}
