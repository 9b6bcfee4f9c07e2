import { LabelsPage } from '@/features/shipment-labels/components/LabelsPage';

/** /portal/labels?ids=…&format=label|waybill: the customer's own labels and waybills (fetched
 * through the portal's service). Its own chunk, with the barcode encoders. */
export default function PortalLabelsPage() {
  return <LabelsPage area="portal" />;
}
