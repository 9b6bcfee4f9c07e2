// The last tracking result, kept in this browser so it still opens offline (spec issue:
// offline). Only the most recent shipment is kept.
import { fromJsonString, toJsonString } from '@bufbuild/protobuf';
import { ShipmentSchema, type Shipment } from '@/gen/logistics/v1/shipment_pb';

const STORAGE_KEY = 'last-tracking-result';

export type SavedResult = { shipment: Shipment; savedAt: string };

export function saveLastResult(shipment: Shipment): void {
  try {
    const record = { trackingNumber: shipment.trackingNumber, savedAt: new Date().toISOString(), shipment: toJsonString(ShipmentSchema, shipment) };
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(record));
  } catch (err) {
    console.warn('Could not keep the tracking result for offline use', err);
  }
}

/** The saved result for this number, if that is the one kept. */
export function loadLastResult(trackingNumber: string): SavedResult | null {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const record = JSON.parse(raw) as { trackingNumber: string; savedAt: string; shipment: string };
    if (record.trackingNumber.toUpperCase() !== trackingNumber.toUpperCase()) return null;
    return { shipment: fromJsonString(ShipmentSchema, record.shipment), savedAt: record.savedAt };
  } catch (err) {
    console.warn('Could not read the saved tracking result', err);
    return null;
  }
}
