import { Role } from '@/gen/logistics/v1/user_pb';
import { useSession } from '@/features/admin-session/hooks/use-session';
import { AddressBookPage } from '@/features/portal/components/AddressBookPage';

/** /portal/address-book: customer admins change it, customer users read it. */
export default function PortalAddressBookPage() {
  const session = useSession();
  return <AddressBookPage canEdit={session.status === 'signed-in' && session.user.role === Role.CUSTOMER_ADMIN} />;
}
