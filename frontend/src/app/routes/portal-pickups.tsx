import { PickupsPage } from '@/features/portal/components/PickupsPage';

/** /portal/pickups: the customer's pickups. */
export default function PortalPickupsPage() {
  return <PickupsPage />;
}
