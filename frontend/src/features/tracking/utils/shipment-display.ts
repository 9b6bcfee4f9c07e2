// Pure mapping from the Shipment message to what the track result shows.
import { ConnectError, Code } from '@connectrpc/connect';
import {
  PaymentMode,
  ShipmentMode,
  ShipmentStatus,
  ShipmentType,
  type HistoryEntry,
  type Package,
} from '@/gen/logistics/v1/shipment_pb';
import { humanize } from '@/utils/format';

export const NOT_FOUND_MESSAGE = 'Shipment not found. Please check your tracking number and try again.';
export const EMPTY_INPUT_MESSAGE = 'Please enter a tracking number.';
export const COPIED_MESSAGE = 'Tracking number copied to clipboard!';

const STATUS_KEYS: Record<number, string> = {
  [ShipmentStatus.PENDING]: 'pending',
  [ShipmentStatus.IN_TRANSIT]: 'in_transit',
  [ShipmentStatus.DELIVERED]: 'delivered',
  [ShipmentStatus.DELAYED]: 'delayed',
  [ShipmentStatus.ON_HOLD]: 'on_hold',
};

const TYPE_KEYS: Record<number, string> = {
  [ShipmentType.STANDARD]: 'standard',
  [ShipmentType.EXPRESS]: 'express',
  [ShipmentType.ECONOMY]: 'economy',
};

const MODE_KEYS: Record<number, string> = {
  [ShipmentMode.LAND_SHIPPING]: 'land_shipping',
  [ShipmentMode.AIR_SHIPPING]: 'air_shipping',
  [ShipmentMode.SEA_SHIPPING]: 'sea_shipping',
};

const PAYMENT_LABELS: Record<number, string> = {
  [PaymentMode.BANK_TRANSFER]: 'Bank Transfer',
  [PaymentMode.CREDIT_CARD]: 'Credit Card',
  [PaymentMode.CASH]: 'Cash',
  [PaymentMode.CHECK]: 'Check',
};

/** ShipmentStatus.IN_TRANSIT → "in_transit" (the stored value); unknown → "unknown". */
export function statusKey(status: ShipmentStatus): string {
  return STATUS_KEYS[status] ?? 'unknown';
}

/** ShipmentStatus.IN_TRANSIT → "in transit". */
export function statusLabel(status: ShipmentStatus): string {
  return humanize(statusKey(status));
}

export type BadgeTone = 'green' | 'blue' | 'red' | 'yellow' | 'grey';

/** Badge colours: green delivered, blue in_transit, red delayed, yellow on_hold, grey otherwise. */
export function statusTone(key: string): BadgeTone {
  switch (key.trim().toLowerCase().replace(/\s+/g, '_')) {
    case 'delivered':
      return 'green';
    case 'in_transit':
      return 'blue';
    case 'delayed':
      return 'red';
    case 'on_hold':
      return 'yellow';
    default:
      return 'grey';
  }
}

/** ShipmentType.EXPRESS → "express". */
export function shipmentTypeLabel(type: ShipmentType): string {
  return humanize(TYPE_KEYS[type] ?? 'not specified');
}

/** ShipmentMode.AIR_SHIPPING → "air shipping". */
export function shipmentModeLabel(mode: ShipmentMode): string {
  return humanize(MODE_KEYS[mode] ?? 'not specified');
}

export type ModeIcon = 'sea' | 'air' | 'ground';

/** Which icon goes with the mode: a ship, a plane or a truck. */
export function shipmentModeIcon(mode: ShipmentMode): ModeIcon {
  switch (mode) {
    case ShipmentMode.SEA_SHIPPING:
      return 'sea';
    case ShipmentMode.AIR_SHIPPING:
      return 'air';
    default:
      return 'ground';
  }
}

/** PaymentMode.BANK_TRANSFER → "Bank Transfer". */
export function paymentModeLabel(mode: PaymentMode): string {
  return PAYMENT_LABELS[mode] ?? 'Not specified';
}

/** Σ weight × quantity over the packages, in kg (the shipment's total actual weight). */
export function totalWeightKg(packages: ReadonlyArray<Pick<Package, 'weightKg' | 'quantity'>>): number {
  const sum = packages.reduce((total, p) => total + p.weightKg * p.quantity, 0);
  return Math.round(sum * 1000) / 1000;
}

/** The history, newest first, by its UTC timestamp (to the nanosecond); ties and entries
 * without a timestamp keep the reverse of their stored (oldest-first) order. */
export function historyNewestFirst<T extends Pick<HistoryEntry, 'time'>>(history: ReadonlyArray<T>): T[] {
  return history
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => {
      const ta = a.entry.time;
      const tb = b.entry.time;
      if (ta && tb) {
        if (ta.seconds !== tb.seconds) return tb.seconds > ta.seconds ? 1 : -1;
        if (ta.nanos !== tb.nanos) return tb.nanos - ta.nanos;
      }
      return b.index - a.index;
    })
    .map(({ entry }) => entry);
}

/**
 * What the visitor reads when a lookup fails: the spec's not-found sentence for every failure,
 * except a rate limit, where the server's own sentence says when to try again.
 */
export function trackingErrorMessage(error: unknown): string {
  const err = ConnectError.from(error);
  if (err.code === Code.ResourceExhausted && err.rawMessage.trim()) {
    return err.rawMessage;
  }
  return NOT_FOUND_MESSAGE;
}
