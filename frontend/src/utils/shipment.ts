// Pure mapping from the Shipment enums and messages to what the pages show (tracking and admin).
import {
  PaymentMode,
  ShipmentMode,
  ShipmentStatus,
  ShipmentType,
  type HistoryEntry,
  type Package,
} from '@/gen/logistics/v1/shipment_pb';
import { titleCase } from '@/utils/format';

/** A choice of a select: the stored key (e.g. "in_transit"), its enum value, its label and the
 * 'track' catalogue's id of that label (the visitor's pages translate it; the admin area shows
 * `label`). */
export type EnumOption<E extends number> = { key: string; value: E; label: string; labelId: string };

// The one place that names each value for people: every screen shows these labels, the server gets the keys.

/** pending, in_transit, delivered, delayed, on_hold (the spec's order). */
export const STATUS_OPTIONS: EnumOption<ShipmentStatus>[] = [
  { key: 'pending', value: ShipmentStatus.PENDING, label: 'Pending', labelId: 'track.status.pending' },
  { key: 'in_transit', value: ShipmentStatus.IN_TRANSIT, label: 'In Transit', labelId: 'track.status.in_transit' },
  { key: 'delivered', value: ShipmentStatus.DELIVERED, label: 'Delivered', labelId: 'track.status.delivered' },
  { key: 'delayed', value: ShipmentStatus.DELAYED, label: 'Delayed', labelId: 'track.status.delayed' },
  { key: 'on_hold', value: ShipmentStatus.ON_HOLD, label: 'On Hold', labelId: 'track.status.on_hold' },
];
/** standard, express, economy. */
export const TYPE_OPTIONS: EnumOption<ShipmentType>[] = [
  { key: 'standard', value: ShipmentType.STANDARD, label: 'Standard', labelId: 'track.type.standard' },
  { key: 'express', value: ShipmentType.EXPRESS, label: 'Express', labelId: 'track.type.express' },
  { key: 'economy', value: ShipmentType.ECONOMY, label: 'Economy', labelId: 'track.type.economy' },
];
/** land_shipping, air_shipping, sea_shipping. */
export const MODE_OPTIONS: EnumOption<ShipmentMode>[] = [
  { key: 'land_shipping', value: ShipmentMode.LAND_SHIPPING, label: 'Land Shipping', labelId: 'track.mode.land_shipping' },
  { key: 'air_shipping', value: ShipmentMode.AIR_SHIPPING, label: 'Air Shipping', labelId: 'track.mode.air_shipping' },
  { key: 'sea_shipping', value: ShipmentMode.SEA_SHIPPING, label: 'Sea Shipping', labelId: 'track.mode.sea_shipping' },
];
/** bank_transfer = Bank Transfer, credit_card = Credit Card, cash = Cash, check = Check (the spec's labels). */
export const PAYMENT_OPTIONS: EnumOption<PaymentMode>[] = [
  { key: 'bank_transfer', value: PaymentMode.BANK_TRANSFER, label: 'Bank Transfer', labelId: 'track.payment.bank_transfer' },
  { key: 'credit_card', value: PaymentMode.CREDIT_CARD, label: 'Credit Card', labelId: 'track.payment.credit_card' },
  { key: 'cash', value: PaymentMode.CASH, label: 'Cash', labelId: 'track.payment.cash' },
  { key: 'check', value: PaymentMode.CHECK, label: 'Check', labelId: 'track.payment.check' },
];

const NOT_SPECIFIED = 'Not specified';

function labelOf<E extends number>(options: readonly EnumOption<E>[], value: E, missing: string): string {
  return options.find((o) => o.value === value)?.label ?? missing;
}

/** The 'track' catalogue's id of the value's label ("Not specified" when unset or unknown). */
export function labelIdOf<E extends number>(options: readonly EnumOption<E>[], value: E): string {
  return options.find((o) => o.value === value)?.labelId ?? 'track.label.not_specified';
}

/** ShipmentStatus.IN_TRANSIT → "in_transit" (the stored value); unknown → "unknown". */
export function statusKey(status: ShipmentStatus): string {
  return STATUS_OPTIONS.find((o) => o.value === status)?.key ?? 'unknown';
}

/** ShipmentStatus.IN_TRANSIT → "In Transit". */
export function statusLabel(status: ShipmentStatus): string {
  return labelOf(STATUS_OPTIONS, status, 'Unknown');
}

/** "in_transit" → "In Transit"; an unknown key is title-cased. */
export function statusLabelOfKey(key: string): string {
  return STATUS_OPTIONS.find((o) => o.key === key)?.label ?? titleCase(key);
}

/** The 'track' catalogue's id of a status key's label (statusKey's "unknown" included); undefined
 * for another key, which is shown title-cased. */
export function statusLabelIdOfKey(key: string): string | undefined {
  return key === 'unknown' ? 'track.status.unknown' : STATUS_OPTIONS.find((o) => o.key === key)?.labelId;
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

/** ShipmentType.EXPRESS → "Express". */
export function shipmentTypeLabel(type: ShipmentType): string {
  return labelOf(TYPE_OPTIONS, type, NOT_SPECIFIED);
}

/** ShipmentMode.AIR_SHIPPING → "Air Shipping". */
export function shipmentModeLabel(mode: ShipmentMode): string {
  return labelOf(MODE_OPTIONS, mode, NOT_SPECIFIED);
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
  return labelOf(PAYMENT_OPTIONS, mode, NOT_SPECIFIED);
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

/** The history by day ("YYYY-MM-DD" in the company's time zone), newest day and newest entry
 * first. */
export function historyByDay<T extends Pick<HistoryEntry, 'time' | 'localDate'>>(
  history: ReadonlyArray<T>,
): Array<{ localDate: string; entries: T[] }> {
  const days: Array<{ localDate: string; entries: T[] }> = [];
  for (const entry of historyNewestFirst(history)) {
    const day = days.find((d) => d.localDate === entry.localDate);
    if (day) day.entries.push(entry);
    else days.push({ localDate: entry.localDate, entries: [entry] });
  }
  return days;
}

/** The option's key for an enum value, or "" when unset or unknown. */
export function keyOf<E extends number>(options: readonly EnumOption<E>[], value: E): string {
  return options.find((o) => o.value === value)?.key ?? '';
}

/** The enum value for an option key; 0 (UNSPECIFIED) when the key is empty or unknown. */
export function valueOf<E extends number>(options: readonly EnumOption<E>[], key: string): E {
  return options.find((o) => o.key === key)?.value ?? (0 as E);
}
