import { useEffect } from 'react';
import { ToastHost } from '@/components/layout/ToastHost';
import { prepareToasts } from '@/lib/toast';
import { RequireStaff } from '@/features/admin-session/components/RequireStaff';
import { useLogout, useSessionRefresh, useSessionUnreachable } from '@/features/admin-session/hooks/use-session';
import { CourierApp } from '@/features/courier/components/CourierApp';
import { forgetCourier, keepCourier, keptCourier } from '@/features/courier/utils/kept-round';
import type { User } from '@/gen/logistics/v1/user_pb';
import { DataProvider } from '../data-provider';

/** /courier: the phone app of couriers (and any staff who move shipments), behind the staff
 * sign-in. Outside the site's header and footer: a screen for one hand on the road. */
export default function CourierPage() {
  // Its toasts ("kept on this phone") are shown offline: their code comes while there is signal.
  useEffect(() => prepareToasts(), []);
  return (
    <DataProvider>
      <SessionGate />
      <ToastHost />
    </DataProvider>
  );
}

/** Without signal the session cannot be asked for: the courier last signed in on this phone goes
 * on working (actions wait in the outbox), and the session is asked again until it answers. */
function SessionGate() {
  const unreachable = useSessionUnreachable();
  useSessionRefresh();
  const kept = unreachable ? keptCourier() : null;
  if (kept) return <SignedIn user={kept} />;
  return <RequireStaff>{(user) => <SignedIn user={user} />}</RequireStaff>;
}

function SignedIn({ user }: { user: User }) {
  const { logout, loggingOut } = useLogout();
  useEffect(() => keepCourier(user), [user]);
  return (
    <CourierApp
      user={user}
      onSignOut={() => {
        forgetCourier();
        logout();
      }}
      signingOut={loggingOut}
    />
  );
}
