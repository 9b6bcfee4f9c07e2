// The progress steps of a shipment (Created → Picked up → In transit → Out for delivery →
// Delivered), derived from its status, places and history. Pure: no React, no network.
import { ShipmentStatus, type HistoryEntry, type Shipment } from '@/gen/logistics/v1/shipment_pb';
import { historyNewestFirst } from '@/utils/shipment';

const PROGRESS_STEPS = ['Created', 'Picked up', 'In transit', 'Out for delivery', 'Delivered'] as const;
type ProgressStepName = (typeof PROGRESS_STEPS)[number];

const PICKED_UP = 1;
const IN_TRANSIT = 2;
const OUT_FOR_DELIVERY = 3;
const DELIVERED = 4;

/** A delay or hold, shown on the step the shipment had reached when it happened; `past` once
 * the shipment moved on (another step, or another status since). */
type ProgressMarker = { status: 'delayed' | 'on_hold'; localDate: string; past: boolean };

export type ProgressStep = {
  name: ProgressStepName;
  /** done: passed; current: where the shipment is now (a delivered shipment's current step is
   * Delivered); upcoming: not reached yet. */
  state: 'done' | 'current' | 'upcoming';
  markers: ProgressMarker[];
};

type ProgressInput = Pick<Shipment, 'status' | 'destination' | 'currentLocation'> & {
  history: ReadonlyArray<Pick<HistoryEntry, 'status' | 'location' | 'localDate' | 'time'>>;
};

/** The city of a place: its first comma-separated part, without case or accents. */
export function cityKey(place: string): string {
  return place
    .split(',')[0]
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toLowerCase();
}

function isHeld(status: ShipmentStatus): boolean {
  return status === ShipmentStatus.DELAYED || status === ShipmentStatus.ON_HOLD;
}

/** The step reached once the shipment is in this status at this place, given the step reached
 * before. Steps are never lost, except Delivered: only a delivered status is delivered (an admin
 * may set any status). */
function stepOf(status: ShipmentStatus, place: string, destinationCity: string, reached: number): number {
  if (status === ShipmentStatus.DELIVERED) return DELIVERED;
  let step = Math.min(reached, OUT_FOR_DELIVERY);
  if (status === ShipmentStatus.IN_TRANSIT) step = Math.max(step, IN_TRANSIT);
  else if (isHeld(status)) step = Math.max(step, PICKED_UP);
  const moving = status === ShipmentStatus.IN_TRANSIT || isHeld(status);
  if (moving && destinationCity !== '' && cityKey(place) === destinationCity) step = Math.max(step, OUT_FOR_DELIVERY);
  return step;
}

/**
 * The five steps with the current one, and a marker for each delay or hold on the step reached
 * when it happened (one per status and step: the latest); only the shipment's present delay or
 * hold is not `past`.
 * - Created: always done.
 * - Picked up: the shipment has left pending (a later entry in transit, delivered, delayed or
 *   on hold, or a current status other than pending).
 * - In transit: it has been in transit.
 * - Out for delivery: in transit, delayed or on hold in the destination's city.
 * - Delivered: its status is delivered.
 */
export function shipmentProgress(shipment: ProgressInput): ProgressStep[] {
  const destinationCity = cityKey(shipment.destination);
  const markers: ProgressMarker[][] = PROGRESS_STEPS.map(() => []);
  let reached = 0;
  for (const entry of historyNewestFirst(shipment.history).reverse()) {
    reached = stepOf(entry.status, entry.location, destinationCity, reached);
    if (isHeld(entry.status)) {
      const status = entry.status === ShipmentStatus.DELAYED ? 'delayed' : 'on_hold';
      const onStep = markers[reached].filter((m) => m.status !== status);
      markers[reached] = [...onStep, { status, localDate: entry.localDate, past: true }];
    }
  }
  if (shipment.status !== ShipmentStatus.PENDING && shipment.status !== ShipmentStatus.UNSPECIFIED) {
    reached = Math.max(reached, PICKED_UP);
  }
  reached = stepOf(shipment.status, shipment.currentLocation, destinationCity, reached);
  const heldNow = shipment.status === ShipmentStatus.DELAYED ? 'delayed' : shipment.status === ShipmentStatus.ON_HOLD ? 'on_hold' : null;
  markers[reached] = markers[reached].map((m) => ({ ...m, past: m.status !== heldNow }));

  return PROGRESS_STEPS.map((name, index) => ({
    name,
    state: index < reached ? 'done' : index === reached ? 'current' : 'upcoming',
    markers: markers[index],
  }));
}
