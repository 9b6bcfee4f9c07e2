import { Plane, Ship, Truck } from 'lucide-react';
import type { ModeIcon } from '@/utils/shipment';

/** A ship, plane or truck for sea, air or ground shipping. */
export function ShipmentModeIcon({ kind }: { kind: ModeIcon }) {
  const props = { 'aria-hidden': true, size: 18, 'data-icon': kind } as const;
  if (kind === 'sea') return <Ship {...props} />;
  if (kind === 'air') return <Plane {...props} />;
  return <Truck {...props} />;
}
