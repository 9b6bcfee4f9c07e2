// Every field of a shipment the back office shows or edits, once: the create/edit form's inputs
// and defaults, the payloads and update mask (shipment-form.ts), where a server violation goes,
// and the View dialog's summary all follow this table. A new field is its proto line and one
// line here.
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CourierAssignment, Package, Party, Shipment, ShipmentSchema } from '@/gen/logistics/v1/shipment_pb';
import { EMPTY_VALUE, formatCents, formatClock, formatDateTime, formatDateParts, formatDecimal, formatIsoDate, formatKg, titleCase } from '@/utils/format';
import {
  MODE_OPTIONS,
  PAYMENT_OPTIONS,
  STATUS_OPTIONS,
  TYPE_OPTIONS,
  paymentModeLabel,
  shipmentModeIcon,
  shipmentModeLabel,
  shipmentTypeLabel,
  statusLabel,
  type EnumOption,
  type ModeIcon,
} from '@/utils/shipment';
import {
  choice,
  customer,
  date,
  decimal,
  integer,
  language,
  longText,
  money,
  parseDecimal,
  parseInteger,
  text,
  time,
  type InputAttributes,
  type ScalarKind,
} from './field-kinds';

type Fields<M> = Exclude<keyof M, '$typeName' | '$unknown'>;
type ShipmentField = Fields<Shipment>;
type Init<K extends ShipmentField> = NonNullable<MessageInitShape<typeof ShipmentSchema>[K]>;

/** The fieldset an input sits in (its legend); null: a block of its own where it stands in the table. */
export type FormGroup = 'Tracking' | 'Shipment' | 'Schedule' | null;

type InputOptions<N extends string> = {
  /** The form value's name when it is not the message field's (the form holds dollars, not cents). */
  name?: N;
  group?: FormGroup;
  /** Only the Edit form has it (tracking changes). */
  editOnly?: boolean;
  /** A figure the packages give: the input shows it, read-only, whenever this returns one (the
   * server applies the same rule, details.rs `follow_packages`). */
  follows?: (packages: readonly PackageFormValues[]) => string | null;
  /** Said under a figure that follows the packages. */
  followsHint?: string;
};

// Methods, not function properties, so that every entry fits ShipmentFieldEntry.
type ViewOptions<T> = {
  /** The View dialog's term when it is not the form's label. */
  term?: string;
  /** Not in the View dialog's summary. */
  hidden?: boolean;
  mono?: boolean;
  icon?(value: T): ModeIcon;
  /** The value is a customer's id: the View dialog shows the customer's name. */
  customer?: boolean;
};

export type ScalarEntry<K extends ShipmentField = ShipmentField, N extends string = string> = {
  type: 'scalar';
  field: K;
  label: string;
  kind: ScalarKind<Shipment[K], Init<K>>;
  input: Required<Pick<InputOptions<N>, 'name'>> & Omit<InputOptions<N>, 'name'>;
  view: ViewOptions<Shipment[K]>;
};

/** Shown in the View dialog only (the server sets it). */
type OutputEntry<K extends ShipmentField = ShipmentField> = {
  type: 'output';
  field: K;
  label: string;
  show(value: Shipment[K]): string;
  view: ViewOptions<Shipment[K]>;
};

/** A party's fieldset; the View dialog shows it as a card. */
type PartyEntry<K extends 'shipper' | 'receiver' = 'shipper' | 'receiver'> = {
  type: 'party';
  field: K;
  label: string;
  input: { name: K };
};

/** The package lines; the View dialog shows them as a table. */
type PackagesEntry = { type: 'packages'; field: 'packages'; label: string; input: { name: 'packages' } };

export type ShipmentFieldEntry = ScalarEntry | OutputEntry | PartyEntry | PackagesEntry;

function scalar<const K extends ShipmentField, const N extends string = K>(
  field: K,
  label: string,
  kind: ScalarKind<Shipment[K], Init<K>>,
  options: InputOptions<N> & { view?: ViewOptions<Shipment[K]> } = {},
): ScalarEntry<K, N> {
  const { view = {}, name = field as string as N, group = 'Shipment', ...input } = options;
  return { type: 'scalar', field, label, kind, input: { name, group, ...input }, view };
}

function output<const K extends ShipmentField>(
  field: K,
  label: string,
  show: (value: Shipment[K]) => string,
  view: ViewOptions<Shipment[K]> = {},
): OutputEntry<K> {
  return { type: 'output', field, label, show, view };
}

function party<const K extends 'shipper' | 'receiver'>(field: K, label: string): PartyEntry<K> {
  return { type: 'party', field, label, input: { name: field } };
}

/** A party's inputs, in the form's order. */
export const PARTY_FIELDS: ReadonlyArray<{
  field: Fields<Party>;
  label: string;
  wide?: boolean;
  attributes?: InputAttributes;
}> = [
  { field: 'name', label: 'Name' },
  { field: 'phone', label: 'Phone', attributes: { type: 'tel', inputMode: 'tel' } },
  { field: 'address', label: 'Address', wide: true },
  { field: 'email', label: 'Email', wide: true, attributes: { type: 'email' } },
];

function line<const K extends Fields<Package>, const N extends string = K>(
  field: K,
  label: string,
  kind: ScalarKind<Package[K]>,
  options: { name?: N; wide?: boolean } = {},
) {
  return { field, label, kind, name: options.name ?? (field as string as N), wide: options.wide };
}

/** A package line's inputs, in the form's order. */
export const PACKAGE_FIELDS = [
  line('quantity', 'Quantity', integer),
  line('pieceType', 'Piece Type', text),
  line('description', 'Description', text, { wide: true }),
  line('lengthCm', 'Length (cm)', decimal, { name: 'length' }),
  line('widthCm', 'Width (cm)', decimal, { name: 'width' }),
  line('heightCm', 'Height (cm)', decimal, { name: 'height' }),
  line('weightKg', 'Weight (kg)', decimal, { name: 'weight' }),
];

/** The pieces the package lines hold. */
function packagePieces(packages: readonly PackageFormValues[]): string {
  return String(packages.reduce((sum, p) => sum + (parseInteger(p.quantity) ?? 0), 0));
}

/** The package lines' total weight (kg, to the gram), or null when they give none. */
function packagesWeight(packages: readonly PackageFormValues[]): string | null {
  const total = packages.reduce((sum, p) => sum + (parseDecimal(p.weight) ?? 0) * (parseInteger(p.quantity) ?? 0), 0);
  return total > 0 ? String(Math.round(total * 1000) / 1000) : null;
}

/** The courier round a shipment is on: "rider@example.com, Nov 28, 2026"; empty for none. */
export function courierRound(assignment: CourierAssignment | undefined): string {
  const date = assignment?.date;
  if (!assignment || !date) return '';
  return `${assignment.courierEmail}, ${formatDateParts(date.year, date.month, date.day)}`;
}

/** In the order of the View dialog's summary; the form keeps this order within each fieldset. */
export const SHIPMENT_FIELDS = [
  output('trackingNumber', 'Tracking Number', (n) => n, { mono: true }),
  scalar('status', 'Status', choice(STATUS_OPTIONS, statusLabel, 'pending'), { group: 'Tracking', editOnly: true }),
  party('shipper', 'Shipper'),
  party('receiver', 'Receiver'),
  scalar('customerId', 'Customer', customer, { view: { customer: true } }),
  scalar('origin', 'Origin', text),
  scalar('destination', 'Destination', text),
  scalar('currentLocation', 'Current Location', text, { group: 'Tracking', editOnly: true }),
  output('courierAssignment', 'Courier', courierRound),
  scalar('carrier', 'Carrier', text),
  scalar('type', 'Type of Shipment', choice(TYPE_OPTIONS, shipmentTypeLabel)),
  scalar('mode', 'Shipment Mode', choice(MODE_OPTIONS, shipmentModeLabel), { view: { icon: shipmentModeIcon } }),
  scalar('paymentMode', 'Payment Mode', choice(PAYMENT_OPTIONS, paymentModeLabel)),
  scalar('product', 'Product', text),
  scalar('productQuantity', 'Product Quantity', integer),
  scalar('packageCount', 'Package Count', integer, {
    follows: packagePieces,
    followsHint: 'The pieces in the packages below.',
  }),
  scalar('totalFreightCents', 'Total Freight ($)', money, { name: 'totalFreight', view: { term: 'Total Freight' } }),
  scalar('weightKg', 'Weight (kg)', decimal, {
    name: 'weight',
    view: { term: 'Weight' },
    follows: packagesWeight,
    followsHint: 'The total of the packages below.',
  }),
  scalar('languageCode', 'Language of e-mails', language, { view: { hidden: true } }),
  scalar('expectedDeliveryDate', 'Expected Delivery Date', date, { group: 'Schedule', view: { term: 'Expected Delivery' } }),
  scalar('departureTime', 'Departure Time', time, { group: 'Schedule' }),
  scalar('pickupDate', 'Pickup Date', date, { group: 'Schedule' }),
  scalar('pickupTime', 'Pickup Time', time, { group: 'Schedule' }),
  { type: 'packages', field: 'packages', label: 'Packages', input: { name: 'packages' } } satisfies PackagesEntry,
  output('totalVolumetricWeightKg', 'Total Volumetric Weight', formatKg),
  output('totalVolumeCubicMetres', 'Total Volume', (m3) => `${formatDecimal(m3, 4)} m³`),
  output('totalActualWeightKg', 'Total Actual Weight', formatKg),
  output('createTime', 'Created', (t) => formatDateTime(t ? timestampDate(t) : undefined)),
  output('updateTime', 'Updated', (t) => formatDateTime(t ? timestampDate(t) : undefined)),
  scalar('comments', 'Comments', longText, { group: null }),
];

export type PartyFormValues = Record<Fields<Party>, string>;

export type PackageFormValues = { [E in (typeof PACKAGE_FIELDS)[number] as E['name']]: string };

/** One row of the View dialog's summary. */
export type SummaryRow = { field: string; term: string; value: string; mono?: boolean; icon?: ModeIcon; customerId?: string };

/** The View dialog's summary of a shipment, in the table's order. */
export function shipmentSummary(s: Shipment): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const entry of SHIPMENT_FIELDS as readonly ShipmentFieldEntry[]) {
    if (entry.type !== 'scalar' && entry.type !== 'output') continue;
    const { view } = entry;
    if (view.hidden) continue;
    const value = s[entry.field];
    rows.push({
      field: entry.field,
      term: view.term ?? entry.label,
      value: entry.type === 'scalar' ? entry.kind.show(value) : entry.show(value as never),
      mono: view.mono,
      icon: view.icon?.(value as never),
      customerId: view.customer && typeof value === 'string' && value !== '' ? value : undefined,
    });
  }
  return rows;
}

/** The audit log's name of a shipment field (the stored record's, e.g. `shipperName`) where it
 * differs from the message's. */
const RECORD_FIELDS: Readonly<Record<string, string>> = {
  typeOfShipment: 'type',
  shipmentMode: 'mode',
  weight: 'weightKg',
  language: 'languageCode',
  totalVolumetricWeight: 'totalVolumetricWeightKg',
  totalVolume: 'totalVolumeCubicMetres',
  totalActualWeight: 'totalActualWeightKg',
  createdAt: 'createTime',
  updatedAt: 'updateTime',
};

const CHOICES: Readonly<Record<string, readonly EnumOption<number>[]>> = {
  status: STATUS_OPTIONS,
  type: TYPE_OPTIONS,
  mode: MODE_OPTIONS,
  paymentMode: PAYMENT_OPTIONS,
};

const PARTY_PREFIX = /^(shipper|receiver)(Name|Address|Phone|Email)$/;
const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const CLOCK = /^\d{1,2}:\d{2}(?::\d{2})?$/;

/** A changed field of a shipment's audit entry as the shipment form names it ("Current
 * Location", "Shipper Phone") and its stored value as the View dialog shows it (status labels,
 * local times, money), from SHIPMENT_FIELDS. */
export function describeShipmentChange(field: string, value: unknown): { label: string; value: string } {
  const party = PARTY_PREFIX.exec(field);
  if (party) {
    const side = (SHIPMENT_FIELDS as readonly ShipmentFieldEntry[]).find((e) => e.field === party[1])?.label ?? party[1];
    const part = PARTY_FIELDS.find((p) => p.field === party[2].toLowerCase())?.label ?? party[2];
    return { label: `${side} ${part}`, value: shownValue(field, value) };
  }
  const name = RECORD_FIELDS[field] ?? field;
  const entry = (SHIPMENT_FIELDS as readonly ShipmentFieldEntry[]).find((e) => e.field === name);
  const label = entry ? (entry.type === 'scalar' && entry.view.term) || entry.label : titleCase(field.replace(/([a-z])([A-Z])/g, '$1 $2'));
  return { label, value: shownValue(name, value) };
}

function shownValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (typeof value === 'string') {
    const choice = CHOICES[field]?.find((o) => o.key === value);
    if (choice) return choice.label;
    if (ISO_MOMENT.test(value)) return formatDateTime(new Date(value));
    if (ISO_DAY.test(value)) return formatIsoDate(value);
    if (CLOCK.test(value)) return formatClock(value);
    return value;
  }
  if (typeof value === 'number' && field === 'totalFreightCents') return formatCents(value);
  if (typeof value === 'number' && field.endsWith('Kg')) return formatKg(value);
  return typeof value === 'number' ? formatDecimal(value, 4) : JSON.stringify(value);
}
