// The create/edit form's values (strings, as the inputs hold them) ↔ the Shipment message,
// the update mask of an edit, and where the server's field violations go in the form.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  Date as ProtoDate,
  Package,
  Party,
  Shipment,
  ShipmentSchema,
  TimeOfDay,
} from '@/gen/logistics/v1/shipment_pb';
import {
  MODE_OPTIONS,
  PAYMENT_OPTIONS,
  STATUS_OPTIONS,
  TYPE_OPTIONS,
  keyOf,
  valueOf,
} from '@/utils/shipment';
import { centsToDollarsInput, parseDollarsToCents } from './money';

type PartyFormValues = { name: string; address: string; phone: string; email: string };

export type PackageFormValues = {
  quantity: string;
  pieceType: string;
  description: string;
  length: string;
  width: string;
  height: string;
  weight: string;
};

export type ShipmentFormValues = {
  /** Edit only: status key ("in_transit"), current location and the history remarks. */
  status: string;
  currentLocation: string;
  remarks: string;
  /** Edit only: whether the remarks are public status text (else parties and staff only). */
  remarksPublic: boolean;
  shipper: PartyFormValues;
  receiver: PartyFormValues;
  origin: string;
  destination: string;
  carrier: string;
  /** Option keys: "standard", "air_shipping", "bank_transfer"; "" when not chosen. */
  type: string;
  mode: string;
  paymentMode: string;
  packageCount: string;
  product: string;
  productQuantity: string;
  /** Dollars, e.g. "1250.50". */
  totalFreight: string;
  /** Kilograms. */
  weight: string;
  /** YYYY-MM-DD (date inputs). */
  expectedDeliveryDate: string;
  pickupDate: string;
  /** HH:MM (time inputs). */
  departureTime: string;
  pickupTime: string;
  comments: string;
  /** The language of the shipper's and receiver's e-mails: "en", "es", "fr" or "ar". */
  languageCode: string;
  packages: PackageFormValues[];
};

export type ShipmentInit = MessageInitShape<typeof ShipmentSchema>;

const PARTY_FIELDS = ['name', 'address', 'phone', 'email'] as const;

/** A new package line: quantity 1, zero dimensions and weight, empty text. */
export function blankPackage(): PackageFormValues {
  return { quantity: '1', pieceType: '', description: '', length: '0', width: '0', height: '0', weight: '0' };
}

function blankParty(): PartyFormValues {
  return { name: '', address: '', phone: '', email: '' };
}

/** The new-shipment form defaults: text empty, package count 1, product quantity 1,
 * total freight 0, weight 0, one blank package; status pending. */
export function defaultShipmentFormValues(): ShipmentFormValues {
  return {
    status: 'pending',
    currentLocation: '',
    remarks: '',
    remarksPublic: false,
    shipper: blankParty(),
    receiver: blankParty(),
    origin: '',
    destination: '',
    carrier: '',
    type: '',
    mode: '',
    paymentMode: '',
    packageCount: '1',
    product: '',
    productQuantity: '1',
    totalFreight: '0',
    weight: '0',
    expectedDeliveryDate: '',
    pickupDate: '',
    departureTime: '',
    pickupTime: '',
    comments: '',
    languageCode: 'en',
    packages: [blankPackage()],
  };
}

// ---------- parsing the inputs ----------

/** "12" → 12; null unless a whole number 0..2^31-1. */
export function parseInteger(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n <= 2_147_483_647 ? n : null;
}

/** "12.5" → 12.5; null unless a plain non-negative decimal (no sign, no exponent). */
export function parseDecimal(text: string): number | null {
  const t = text.trim();
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** "2026-12-01" → { year: 2026, month: 12, day: 1 }. */
export function parseDateInput(text: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1) return null;
  return { year, month, day };
}

/** "08:30" (or "08:30:00") → { hours: 8, minutes: 30 }. */
export function parseTimeInput(text: string): { hours: number; minutes: number } | null {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(text.trim());
  if (!m) return null;
  const [hours, minutes] = [Number(m[1]), Number(m[2])];
  if (hours > 23 || minutes > 59) return null;
  return { hours, minutes };
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A stored date as a date input's value; "" when unset. */
function dateInputValue(date: ProtoDate | undefined): string {
  if (!date || !date.year || !date.month || !date.day) return '';
  return `${String(date.year).padStart(4, '0')}-${pad2(date.month)}-${pad2(date.day)}`;
}

/** A stored time of day as a time input's value; "" when unset. */
function timeInputValue(time: TimeOfDay | undefined): string {
  if (!time) return '';
  return `${pad2(time.hours)}:${pad2(time.minutes)}`;
}

/** A number as an input shows it: 12.5 → "12.5". */
function numberInputValue(n: number): string {
  return Number.isFinite(n) ? String(n) : '0';
}

// ---------- form ↔ message ----------

function partyValues(party: Party | undefined): PartyFormValues {
  return {
    name: party?.name ?? '',
    address: party?.address ?? '',
    phone: party?.phone ?? '',
    email: party?.email ?? '',
  };
}

function packageValues(p: Package): PackageFormValues {
  return {
    quantity: String(p.quantity),
    pieceType: p.pieceType,
    description: p.description,
    length: numberInputValue(p.lengthCm),
    width: numberInputValue(p.widthCm),
    height: numberInputValue(p.heightCm),
    weight: numberInputValue(p.weightKg),
  };
}

/** The edit form pre-filled with a stored shipment. */
export function shipmentToFormValues(s: Shipment): ShipmentFormValues {
  return {
    status: keyOf(STATUS_OPTIONS, s.status),
    currentLocation: s.currentLocation,
    remarks: '',
    remarksPublic: false,
    shipper: partyValues(s.shipper),
    receiver: partyValues(s.receiver),
    origin: s.origin,
    destination: s.destination,
    carrier: s.carrier,
    type: keyOf(TYPE_OPTIONS, s.type),
    mode: keyOf(MODE_OPTIONS, s.mode),
    paymentMode: keyOf(PAYMENT_OPTIONS, s.paymentMode),
    packageCount: String(s.packageCount),
    product: s.product,
    productQuantity: String(s.productQuantity),
    totalFreight: centsToDollarsInput(s.totalFreightCents),
    weight: numberInputValue(s.weightKg),
    expectedDeliveryDate: dateInputValue(s.expectedDeliveryDate),
    pickupDate: dateInputValue(s.pickupDate),
    departureTime: timeInputValue(s.departureTime),
    pickupTime: timeInputValue(s.pickupTime),
    comments: s.comments,
    languageCode: s.languageCode || 'en',
    packages: s.packages.length > 0 ? s.packages.map(packageValues) : [blankPackage()],
  };
}

type PackageInit = {
  quantity: number;
  pieceType: string;
  description: string;
  lengthCm: number;
  widthCm: number;
  heightCm: number;
  weightKg: number;
};

function packageInit(p: PackageFormValues, stored?: Package): PackageInit {
  // In an edit, an empty input keeps the stored value of the same line.
  const text = (value: string, fallback = '') => value.trim() || fallback;
  const num = (value: string, fallback = 0) => (value.trim() === '' ? fallback : (parseDecimal(value) ?? 0));
  return {
    quantity: p.quantity.trim() === '' ? (stored?.quantity ?? 0) : (parseInteger(p.quantity) ?? 0),
    pieceType: text(p.pieceType, stored?.pieceType),
    description: text(p.description, stored?.description),
    lengthCm: num(p.length, stored?.lengthCm),
    widthCm: num(p.width, stored?.widthCm),
    heightCm: num(p.height, stored?.heightCm),
    weightKg: num(p.weight, stored?.weightKg),
  };
}

function partyInit(p: PartyFormValues) {
  return { name: p.name.trim(), address: p.address.trim(), phone: p.phone.trim(), email: p.email.trim() };
}

/** The CreateShipment payload for a filled-in form (the browser has checked the inputs). */
export function formValuesToNewShipment(v: ShipmentFormValues): ShipmentInit {
  return {
    shipper: partyInit(v.shipper),
    receiver: partyInit(v.receiver),
    origin: v.origin.trim(),
    destination: v.destination.trim(),
    carrier: v.carrier.trim(),
    type: valueOf(TYPE_OPTIONS, v.type),
    mode: valueOf(MODE_OPTIONS, v.mode),
    paymentMode: valueOf(PAYMENT_OPTIONS, v.paymentMode),
    packageCount: parseInteger(v.packageCount) ?? 0,
    product: v.product.trim(),
    productQuantity: parseInteger(v.productQuantity) ?? 0,
    totalFreightCents: parseDollarsToCents(v.totalFreight) ?? 0n,
    weightKg: parseDecimal(v.weight) ?? 0,
    expectedDeliveryDate: parseDateInput(v.expectedDeliveryDate) ?? undefined,
    pickupDate: parseDateInput(v.pickupDate) ?? undefined,
    departureTime: parseTimeInput(v.departureTime) ?? undefined,
    pickupTime: parseTimeInput(v.pickupTime) ?? undefined,
    comments: v.comments.trim(),
    languageCode: v.languageCode,
    packages: v.packages.map((p) => packageInit(p)),
  };
}

export type ShipmentUpdate = {
  /** The id and the new values of the fields named in `paths`. */
  shipment: ShipmentInit;
  /** The update mask: snake_case Shipment field names, "shipper.email" for a party field. */
  paths: string[];
  remarks: string;
  remarksPublic: boolean;
};

function sameDate(a: { year: number; month: number; day: number }, b: ProtoDate | undefined): boolean {
  return !!b && a.year === b.year && a.month === b.month && a.day === b.day;
}

function sameTime(a: { hours: number; minutes: number }, b: TimeOfDay | undefined): boolean {
  return !!b && a.hours === b.hours && a.minutes === b.minutes;
}

function samePackages(a: PackageInit[], b: readonly Package[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (p, i) =>
        p.quantity === b[i].quantity &&
        p.pieceType === b[i].pieceType &&
        p.description === b[i].description &&
        p.lengthCm === b[i].lengthCm &&
        p.widthCm === b[i].widthCm &&
        p.heightCm === b[i].heightCm &&
        p.weightKg === b[i].weightKg,
    )
  );
}

/**
 * The UpdateShipment request for an edit: only the fields the admin changed. An empty or zero
 * value falls back to the stored value, i.e. it is left out of the mask.
 */
export function buildShipmentUpdate(stored: Shipment, v: ShipmentFormValues): ShipmentUpdate {
  const shipment: ShipmentInit = { id: stored.id };
  const paths: string[] = [];

  const text = (path: string, value: string, current: string, set: (value: string) => void) => {
    const t = value.trim();
    if (t !== '' && t !== current) {
      set(t);
      paths.push(path);
    }
  };
  const nonZero = <T extends number | bigint>(
    path: string,
    value: T | null,
    current: T,
    set: (value: T) => void,
  ) => {
    if (value !== null && value !== 0 && value !== 0n && value !== current) {
      set(value);
      paths.push(path);
    }
  };

  text('current_location', v.currentLocation, stored.currentLocation, (x) => (shipment.currentLocation = x));
  nonZero('status', valueOf(STATUS_OPTIONS, v.status), stored.status, (x) => (shipment.status = x));

  for (const side of ['shipper', 'receiver'] as const) {
    const current = partyValues(stored[side]);
    const party = { ...current };
    for (const field of PARTY_FIELDS) {
      text(`${side}.${field}`, v[side][field], current[field], (x) => (party[field] = x));
    }
    if (paths.some((p) => p.startsWith(`${side}.`))) shipment[side] = party;
  }

  text('origin', v.origin, stored.origin, (x) => (shipment.origin = x));
  text('destination', v.destination, stored.destination, (x) => (shipment.destination = x));
  text('carrier', v.carrier, stored.carrier, (x) => (shipment.carrier = x));
  nonZero('type', valueOf(TYPE_OPTIONS, v.type), stored.type, (x) => (shipment.type = x));
  nonZero('mode', valueOf(MODE_OPTIONS, v.mode), stored.mode, (x) => (shipment.mode = x));
  nonZero('package_count', parseInteger(v.packageCount), stored.packageCount, (x) => (shipment.packageCount = x));
  text('product', v.product, stored.product, (x) => (shipment.product = x));
  nonZero('product_quantity', parseInteger(v.productQuantity), stored.productQuantity, (x) => (shipment.productQuantity = x));
  nonZero('payment_mode', valueOf(PAYMENT_OPTIONS, v.paymentMode), stored.paymentMode, (x) => (shipment.paymentMode = x));
  nonZero('total_freight_cents', parseDollarsToCents(v.totalFreight), stored.totalFreightCents, (x) => (shipment.totalFreightCents = x));
  nonZero('weight_kg', parseDecimal(v.weight), stored.weightKg, (x) => (shipment.weightKg = x));

  for (const [path, key, value] of [
    ['expected_delivery_date', 'expectedDeliveryDate', v.expectedDeliveryDate],
    ['pickup_date', 'pickupDate', v.pickupDate],
  ] as const) {
    const date = parseDateInput(value);
    if (date && !sameDate(date, stored[key])) {
      shipment[key] = date;
      paths.push(path);
    }
  }
  for (const [path, key, value] of [
    ['departure_time', 'departureTime', v.departureTime],
    ['pickup_time', 'pickupTime', v.pickupTime],
  ] as const) {
    const time = parseTimeInput(value);
    if (time && !sameTime(time, stored[key])) {
      shipment[key] = time;
      paths.push(path);
    }
  }

  if (v.packages.length > 0) {
    const packages = v.packages.map((p, i) => packageInit(p, stored.packages[i]));
    if (!samePackages(packages, stored.packages)) {
      shipment.packages = packages;
      paths.push('packages');
    }
  }

  text('comments', v.comments, stored.comments, (x) => (shipment.comments = x));
  if (v.languageCode !== (stored.languageCode || 'en')) {
    shipment.languageCode = v.languageCode;
    paths.push('language_code');
  }

  return { shipment, paths, remarks: v.remarks.trim(), remarksPublic: v.remarksPublic };
}

// ---------- server field violations → form fields ----------

const TOP_LEVEL_FIELDS = new Set([
  'status',
  'currentLocation',
  'remarks',
  'origin',
  'destination',
  'carrier',
  'type',
  'mode',
  'paymentMode',
  'packageCount',
  'product',
  'productQuantity',
  'totalFreight',
  'weight',
  'expectedDeliveryDate',
  'pickupDate',
  'departureTime',
  'pickupTime',
  'comments',
  'languageCode',
  'packages',
]);
const PACKAGE_FIELDS = new Set(['quantity', 'pieceType', 'description', 'length', 'width', 'height', 'weight']);

/** Message field names whose form input is named differently. */
const RENAMES: Record<string, string> = {
  totalFreightCents: 'totalFreight',
  weightKg: 'weight',
  lengthCm: 'length',
  widthCm: 'width',
  heightCm: 'height',
};

function camel(segment: string): string {
  const c = segment.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
  return RENAMES[c] ?? c;
}

/**
 * The form field that shows a BadRequest violation: "shipper.email" → "shipper.email",
 * "packages[1].quantity" → "packages.1.quantity", "total_freight_cents" → "totalFreight",
 * "expected_delivery_date.month" → "expectedDeliveryDate", "packages[1]" → "packages".
 * Null when the form has no such input (the message is then shown above the form).
 */
export function formFieldForViolation(field: string): string | null {
  const segments = field
    .trim()
    .replace(/^shipment\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .map(camel);
  if (segments.length === 0) return null;
  const [head, second, third] = segments;
  if (head === 'shipper' || head === 'receiver') {
    return second && (PARTY_FIELDS as readonly string[]).includes(second) ? `${head}.${second}` : null;
  }
  if (head === 'packages') {
    if (second !== undefined && /^\d+$/.test(second) && third !== undefined && PACKAGE_FIELDS.has(third)) {
      return `packages.${second}.${third}`;
    }
    return 'packages';
  }
  return TOP_LEVEL_FIELDS.has(head) ? head : null;
}
