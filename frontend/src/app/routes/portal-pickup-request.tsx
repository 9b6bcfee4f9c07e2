import { PickupRequestPage } from '@/features/portal/components/PickupRequestPage';

/** /portal/pickups/new: a pickup request. */
export default function PortalPickupRequestPage() {
  return <PickupRequestPage />;
}
