// The last tracking result, kept in this browser so it still opens offline (spec issue:
// offline). Only the most recent shipment is kept, and only what the public (LIMITED) view
// shows: never an address, phone, e-mail, package list or price, even when the visitor saw the
// FULL view, so a shared or lost device gives nothing away.
import { create, fromJsonString, toJsonString } from '@bufbuild/protobuf';
import { HistoryEntrySchema, ShipmentSchema, ShipmentView, type Party, type Shipment } from '@/gen/logistics/v1/shipment_pb';

const STORAGE_KEY = 'last-tracking-result';

export type SavedResult = { shipment: Shipment; savedAt: string };

/** "Maria Garcia Lopez" → "Maria G." (as the server shortens names; a single name stays). */
export function firstNameAndInitial(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return words[0] ?? '';
  const initial = [...words[1]][0].toUpperCase();
  return `${words[0]} ${initial}.`;
}

/** "12 Dock Road, Rotterdam, Netherlands" → "Rotterdam, Netherlands": the last two parts, as the
 * server cuts places for the public view. */
export function cityLevel(place: string): string {
  const parts = place
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.slice(-2).join(', ');
}

function limitedParty(party: Party | undefined): { name: string } | undefined {
  return party && { name: firstNameAndInitial(party.name) };
}

/** What the LIMITED view of this shipment shows; the rest is left out. */
export function limitedProjection(shipment: Shipment): Shipment {
  return create(ShipmentSchema, {
    trackingNumber: shipment.trackingNumber,
    status: shipment.status,
    shipper: limitedParty(shipment.shipper),
    receiver: limitedParty(shipment.receiver),
    origin: cityLevel(shipment.origin),
    destination: cityLevel(shipment.destination),
    carrier: shipment.carrier,
    type: shipment.type,
    mode: shipment.mode,
    packageCount: shipment.packageCount,
    weightKg: shipment.weightKg,
    totalActualWeightKg: shipment.totalActualWeightKg,
    expectedDeliveryDate: shipment.expectedDeliveryDate,
    currentLocation: cityLevel(shipment.currentLocation),
    history: shipment.history.map((entry) =>
      create(HistoryEntrySchema, {
        time: entry.time,
        localDate: entry.localDate,
        localTime: entry.localTime,
        location: cityLevel(entry.location),
        status: entry.status,
        // Only what staff marked public: a party's full view also shows internal remarks.
        remarks: entry.remarksPublic ? entry.remarks : '',
        remarksPublic: entry.remarksPublic,
      }),
    ),
    view: ShipmentView.LIMITED,
  });
}

export function saveLastResult(shipment: Shipment): void {
  try {
    const record = {
      trackingNumber: shipment.trackingNumber,
      savedAt: new Date().toISOString(),
      shipment: toJsonString(ShipmentSchema, limitedProjection(shipment)),
    };
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(record));
  } catch (err) {
    console.warn('Could not keep the tracking result for offline use', err);
  }
}

/** The saved result for this number, if that is the one kept (in the LIMITED view, whatever an
 * older version of the site stored). */
export function loadLastResult(trackingNumber: string): SavedResult | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const record = JSON.parse(raw) as { trackingNumber: string; savedAt: string; shipment: string };
    if (record.trackingNumber.toUpperCase() !== trackingNumber.toUpperCase()) return null;
    const shipment = limitedProjection(fromJsonString(ShipmentSchema, record.shipment, { ignoreUnknownFields: true }));
    return { shipment, savedAt: record.savedAt };
  } catch (err) {
    console.warn('Could not read the saved tracking result', err);
    return null;
  }
}
