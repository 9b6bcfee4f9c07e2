import { LabelsPage } from '@/features/shipment-labels/components/LabelsPage';

/** /administration_and_development/labels?ids=…&format=label|waybill: printable labels and
 * waybills. Its own chunk, with the barcode encoders: only this page loads them. */
export default function AdminLabelsPage() {
  return <LabelsPage />;
}
