import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { NotPermitted } from '@/components/ui/NotPermitted';
import { Permission, may } from '@/config/permissions';
import { LabelsPage } from '@/features/shipment-labels/components/LabelsPage';

/** /administration_and_development/labels?ids=…&format=label|waybill: printable labels and
 * waybills. Its own chunk, with the barcode encoders: only this page loads them. */
export default function AdminLabelsPage() {
  const user = useOutletContext<User>();
  if (!may(user, Permission.labelsPrint)) return <NotPermitted />;
  return <LabelsPage />;
}
