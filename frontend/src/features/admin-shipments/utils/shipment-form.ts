// The create/edit form's values ↔ the Shipment message, the update mask of an edit, and where
// the server's field violations go in the form: all walked from SHIPMENT_FIELDS.
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  DeliveryAttemptFailure,
  PartySchema,
  ShipmentSchema,
  type Package,
  type Party,
  type Shipment,
} from '@/gen/logistics/v1/shipment_pb';
import { changedValue, createValue } from './field-kinds';
import {
  PACKAGE_FIELDS,
  PARTY_FIELDS,
  SHIPMENT_FIELDS,
  type PackageFormValues,
  type PartyFormValues,
  type ShipmentFieldEntry,
} from './shipment-fields';

type FormValueOf<E> = E extends { type: 'scalar' }
  ? string
  : E extends { type: 'party' }
    ? PartyFormValues
    : E extends { type: 'packages' }
      ? PackageFormValues[]
      : never;

/** The create/edit form's values, as its inputs hold them (strings), and the edit's remarks. */
export type ShipmentFormValues = {
  [E in Extract<(typeof SHIPMENT_FIELDS)[number], { input: unknown }> as E['input']['name']]: FormValueOf<E>;
} & {
  /** Edit only: the history entry's remarks, and whether they are public status text (else
   * parties and staff only). */
  remarks: string;
  remarksPublic: boolean;
  /** Edit only: the save records a failed delivery attempt for this reason (a
   * DeliveryAttemptFailure, as the select holds it). */
  failedAttempt: string;
};

export type ShipmentInit = MessageInitShape<typeof ShipmentSchema>;
type PackageInit = Record<string, unknown>;

const ENTRIES = SHIPMENT_FIELDS as readonly ShipmentFieldEntry[];

/** A form value by its name, as the table names it. */
function formValue<T>(v: ShipmentFormValues, name: string): T {
  return (v as unknown as Record<string, T>)[name];
}

/** A stored field by its name. */
function stored<T>(s: Shipment, field: string): T {
  return (s as unknown as Record<string, T>)[field];
}

/** A new package line: quantity 1, zero dimensions and weight, empty text. */
export function blankPackage(): PackageFormValues {
  return Object.fromEntries(PACKAGE_FIELDS.map((f) => [f.name, f.kind.blank])) as PackageFormValues;
}

function blankParty(): PartyFormValues {
  return Object.fromEntries(PARTY_FIELDS.map((f) => [f.field, ''])) as PartyFormValues;
}

/** The new-shipment form defaults: text empty, package count 1, product quantity 1, total
 * freight 0, weight 0, one blank package; status pending. */
export function defaultShipmentFormValues(): ShipmentFormValues {
  const values: Record<string, unknown> = { remarks: '', remarksPublic: false, failedAttempt: '0' };
  for (const entry of ENTRIES) {
    if (entry.type === 'scalar') values[entry.input.name] = entry.kind.blank;
    else if (entry.type === 'party') values[entry.input.name] = blankParty();
    else if (entry.type === 'packages') values[entry.input.name] = [blankPackage()];
  }
  return values as ShipmentFormValues;
}

// ---------- form ↔ message ----------

function partyValues(party: Party | undefined): PartyFormValues {
  return Object.fromEntries(PARTY_FIELDS.map((f) => [f.field, party?.[f.field] ?? ''])) as PartyFormValues;
}

function packageValues(p: Package): PackageFormValues {
  return Object.fromEntries(PACKAGE_FIELDS.map((f) => [f.name, f.kind.toInput(p[f.field] as never)])) as PackageFormValues;
}

/** The edit form pre-filled with a stored shipment. */
export function shipmentToFormValues(s: Shipment): ShipmentFormValues {
  const values: Record<string, unknown> = { remarks: '', remarksPublic: false, failedAttempt: '0' };
  for (const entry of ENTRIES) {
    if (entry.type === 'scalar') values[entry.input.name] = entry.kind.toInput(s[entry.field]);
    else if (entry.type === 'party') values[entry.input.name] = partyValues(s[entry.field]);
    else if (entry.type === 'packages') {
      values[entry.input.name] = s.packages.length > 0 ? s.packages.map(packageValues) : [blankPackage()];
    }
  }
  return values as ShipmentFormValues;
}

/** A package line's payload. */
function packageInit(p: PackageFormValues): PackageInit {
  return Object.fromEntries(PACKAGE_FIELDS.map((f) => [f.field, createValue(f.kind as never, p[f.name])]));
}

function partyInit(p: PartyFormValues): Record<string, string> {
  return Object.fromEntries(PARTY_FIELDS.map((f) => [f.field, p[f.field].trim()]));
}

/** The CreateShipment payload for a filled-in form (the browser has checked the inputs). */
export function formValuesToNewShipment(v: ShipmentFormValues): ShipmentInit {
  const shipment: Record<string, unknown> = {};
  for (const entry of ENTRIES) {
    if (entry.type === 'scalar') {
      if (!entry.input.editOnly) shipment[entry.field] = createValue(entry.kind, formValue(v, entry.input.name));
    } else if (entry.type === 'party') {
      shipment[entry.field] = partyInit(formValue(v, entry.input.name));
    } else if (entry.type === 'packages') {
      shipment[entry.field] = formValue<PackageFormValues[]>(v, entry.input.name).map((p) => packageInit(p));
    }
  }
  return shipment as ShipmentInit;
}

export type ShipmentUpdate = {
  /** The id and the new values of the fields named in `paths`. */
  shipment: ShipmentInit;
  /** The update mask: snake_case Shipment field names, "shipper.email" for a party field. */
  paths: string[];
  remarks: string;
  remarksPublic: boolean;
  /** UNSPECIFIED: none. */
  failedAttempt: DeliveryAttemptFailure;
};

/** The update mask's name of a Shipment field: its proto name. */
function maskPath(field: keyof typeof ShipmentSchema.field): string {
  return ShipmentSchema.field[field].name;
}

function samePackages(a: PackageInit[], b: readonly Package[]): boolean {
  return a.length === b.length && a.every((p, i) => PACKAGE_FIELDS.every((f) => p[f.field] === b[i][f.field]));
}

/**
 * The UpdateShipment request for an edit: the update mask names exactly the fields whose value
 * differs from the stored one, so untouched fields are left alone and an emptied optional field
 * (Comments) is cleared.
 */
export function buildShipmentUpdate(storedShipment: Shipment, v: ShipmentFormValues): ShipmentUpdate {
  const shipment: Record<string, unknown> = { id: storedShipment.id };
  const paths: string[] = [];

  for (const entry of ENTRIES) {
    if (entry.type === 'scalar') {
      const value = changedValue(entry.kind, formValue(v, entry.input.name), storedShipment[entry.field]);
      if (value !== undefined) {
        shipment[entry.field] = value;
        paths.push(maskPath(entry.field));
      }
    } else if (entry.type === 'party') {
      const current = partyValues(storedShipment[entry.field]);
      const edited = formValue<PartyFormValues>(v, entry.input.name);
      const party = { ...current };
      for (const { field } of PARTY_FIELDS) {
        const t = edited[field].trim();
        if (t !== current[field]) {
          party[field] = t;
          paths.push(`${maskPath(entry.field)}.${PartySchema.field[field].name}`);
        }
      }
      if (PARTY_FIELDS.some(({ field }) => party[field] !== current[field])) shipment[entry.field] = party;
    } else if (entry.type === 'packages') {
      const lines = formValue<PackageFormValues[]>(v, entry.input.name);
      const storedLines = stored<Package[]>(storedShipment, entry.field);
      if (lines.length > 0) {
        const packages = lines.map((p) => packageInit(p));
        if (!samePackages(packages, storedLines)) {
          shipment[entry.field] = packages;
          paths.push(maskPath(entry.field));
        }
      }
    }
  }

  const failedAttempt = (Number(v.failedAttempt) || 0) as DeliveryAttemptFailure;
  // A failed attempt writes its history entry even where nothing moved: the mask names the
  // location, unchanged, so the save has something to apply.
  if (failedAttempt && !paths.includes('status') && !paths.includes('current_location')) {
    shipment.currentLocation = storedShipment.currentLocation;
    paths.push('current_location');
  }
  return {
    shipment: shipment as ShipmentInit,
    paths,
    remarks: v.remarks.trim(),
    remarksPublic: v.remarksPublic,
    failedAttempt,
  };
}

// ---------- server field violations → form fields ----------

function camel(segment: string): string {
  return segment.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
}

/**
 * The form field that shows a BadRequest violation: "shipper.email" → "shipper.email",
 * "packages[1].quantity" → "packages.1.quantity", "total_freight_cents" → "totalFreight",
 * "expected_delivery_date.month" → "expectedDeliveryDate", "packages[1]" → "packages".
 * A segment names a field by its proto, message or form name. Null when the form has no such
 * input (the message is then shown above the form).
 */
export function formFieldForViolation(path: string): string | null {
  const segments = path
    .trim()
    .replace(/^shipment\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .map(camel);
  if (segments.length === 0) return null;
  const [head, second, third] = segments;
  // The edit's remarks belong to the request, not to the shipment.
  if (head === 'remarks') return 'remarks';
  if (head === 'failedAttempt') return 'failedAttempt';
  const entry = ENTRIES.find((e) => e.type !== 'output' && (e.field === head || e.input.name === head));
  if (!entry || entry.type === 'output') return null;
  if (entry.type === 'party') {
    const sub = PARTY_FIELDS.find((f) => f.field === second);
    return sub ? `${entry.input.name}.${sub.field}` : null;
  }
  if (entry.type === 'packages') {
    const sub = PACKAGE_FIELDS.find((f) => f.field === third || f.name === third);
    return second !== undefined && /^\d+$/.test(second) && sub ? `${entry.input.name}.${second}.${sub.name}` : entry.input.name;
  }
  return entry.input.name;
}
