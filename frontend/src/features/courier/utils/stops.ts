// The day's round as the courier walks it: each stop (a pickup at a customer, a delivery to a
// receiver) with where to go and whom to call, grouped by area. Pure: no React, no DOM.
import type { Pickup } from '@/gen/logistics/v1/customer_pb';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';

export type Stop =
  | { kind: 'pickup'; key: string; area: string; pickup: Pickup; address: string; name: string; phone: string }
  | { kind: 'delivery'; key: string; area: string; shipment: Shipment; address: string; name: string; phone: string };

export type Area = { name: string; stops: Stop[] };

/** Areas in alphabetical order (the same for every courier), pickups first in each, the rest
 * in the order the server gave. */
export function groupByArea(pickups: readonly Pickup[], shipments: readonly Shipment[]): Area[] {
  const stops: Stop[] = [
    ...pickups.map(
      (pickup): Stop => ({
        kind: 'pickup',
        key: `pickup-${pickup.id}`,
        area: pickup.area.trim(),
        pickup,
        address: pickup.address,
        name: pickup.customerName,
        phone: '',
      }),
    ),
    ...shipments.map(
      (shipment): Stop => ({
        kind: 'delivery',
        key: `shipment-${shipment.id}`,
        area: shipment.destination.trim(),
        shipment,
        address: shipment.receiver?.address ?? '',
        name: shipment.receiver?.name ?? '',
        phone: shipment.receiver?.phone ?? '',
      }),
    ),
  ];
  const areas = new Map<string, Area>();
  for (const stop of stops) {
    const key = stop.area.toLocaleLowerCase();
    const area = areas.get(key) ?? { name: stop.area, stops: [] };
    area.stops.push(stop);
    areas.set(key, area);
  }
  return [...areas.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A `tel:` link of a phone number as people write it ("+233 20 123 4567"), or null. */
export function callLink(phone: string): string | null {
  const digits = phone.replace(/[^\d+]/g, '');
  return /^\+?\d{5,15}$/.test(digits) ? `tel:${digits}` : null;
}

/** A link that opens the phone's map app at an address. */
export function mapLink(address: string, area: string): string {
  const query = [address, area].filter((part) => part.trim() !== '').join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}
