import { ToastHost } from '@/components/layout/ToastHost';
import { RequireStaff } from '@/features/admin-session/components/RequireStaff';
import { useLogout } from '@/features/admin-session/hooks/use-session';
import { CourierApp } from '@/features/courier/components/CourierApp';
import type { User } from '@/gen/logistics/v1/user_pb';
import { DataProvider } from '../data-provider';

/** /courier: the phone app of couriers (and any staff who move shipments), behind the staff
 * sign-in. Outside the site's header and footer: a screen for one hand on the road. */
export default function CourierPage() {
  return (
    <DataProvider>
      <RequireStaff>{(user) => <SignedIn user={user} />}</RequireStaff>
      <ToastHost />
    </DataProvider>
  );
}

function SignedIn({ user }: { user: User }) {
  const { logout, loggingOut } = useLogout();
  return <CourierApp user={user} onSignOut={logout} signingOut={loggingOut} />;
}
