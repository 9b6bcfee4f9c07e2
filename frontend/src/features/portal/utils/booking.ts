// The booking form's values, its defaults from the customer, the request it sends and where a
// server violation goes. Pure.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Customer } from '@/gen/logistics/v1/customer_pb';
import { PaymentMode, type ShipmentSchema } from '@/gen/logistics/v1/shipment_pb';
import { placeName } from '@/utils/countries';
import type { QuoteClaims, QuotedOption } from '@/utils/quote-token';
import { MODE_OPTIONS, PAYMENT_OPTIONS, TYPE_OPTIONS, keyOf, valueOf } from '@/utils/shipment';

type PartyValues = { name: string; address: string; phone: string; email: string };
export type PackageValues = {
  quantity: string;
  pieceType: string;
  description: string;
  length: string;
  width: string;
  height: string;
  weight: string;
};

export type BookingValues = {
  shipper: PartyValues;
  receiver: PartyValues;
  origin: string;
  destination: string;
  type: string;
  mode: string;
  paymentMode: string;
  packages: PackageValues[];
  /** `YYYY-MM-DD` and `HH:MM`, as the date and time inputs give them. */
  pickupDate: string;
  pickupTime: string;
  comments: string;
};

export function blankPackage(): PackageValues {
  return { quantity: '1', pieceType: '', description: '', length: '', width: '', height: '', weight: '' };
}

/** The shipper is the customer (its name, billing address and first contact), all editable;
 * the payment mode is the customer's default. */
export function bookingDefaults(customer: Customer | undefined): BookingValues {
  const contact = customer?.contacts[0];
  const payment = customer?.defaultPaymentMode ?? PaymentMode.UNSPECIFIED;
  return {
    shipper: {
      name: customer?.name ?? '',
      address: customer?.billingAddress ?? '',
      phone: contact?.phone ?? '',
      email: contact?.email ?? '',
    },
    receiver: { name: '', address: '', phone: '', email: '' },
    origin: '',
    destination: '',
    type: TYPE_OPTIONS[0].key,
    mode: MODE_OPTIONS[0].key,
    paymentMode: payment === PaymentMode.UNSPECIFIED ? PAYMENT_OPTIONS[0].key : keyOf(PAYMENT_OPTIONS, payment),
    packages: [blankPackage()],
    pickupDate: '',
    pickupTime: '',
    comments: '',
  };
}

const number = (text: string) => {
  const value = Number.parseFloat(text.replace(',', '.'));
  return Number.isFinite(value) ? value : 0;
};
const count = (text: string) => {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : 0;
};
const trimmed = (party: PartyValues) => ({
  name: party.name.trim(),
  address: party.address.trim(),
  phone: party.phone.trim(),
  email: party.email.trim(),
});

/** The booking the portal sends (CustomerPortalService.CreateShipment). */
export function bookingToShipment(values: BookingValues): MessageInitShape<typeof ShipmentSchema> {
  const packages = values.packages.map((p) => ({
    quantity: count(p.quantity),
    pieceType: p.pieceType.trim(),
    description: p.description.trim(),
    lengthCm: number(p.length),
    widthCm: number(p.width),
    heightCm: number(p.height),
    weightKg: number(p.weight),
  }));
  const [year, month, day] = values.pickupDate.split('-').map(Number);
  const [hours, minutes] = values.pickupTime.split(':').map(Number);
  // The carrier (this company), the goods, their count and weight, departure and expected
  // delivery are the server's to fill (customers.rs complete_booking).
  return {
    shipper: trimmed(values.shipper),
    receiver: trimmed(values.receiver),
    origin: values.origin.trim(),
    destination: values.destination.trim(),
    type: valueOf(TYPE_OPTIONS, values.type),
    mode: valueOf(MODE_OPTIONS, values.mode),
    paymentMode: valueOf(PAYMENT_OPTIONS, values.paymentMode),
    packages,
    pickupDate: values.pickupDate ? { year, month, day } : undefined,
    pickupTime: values.pickupTime ? { hours, minutes } : undefined,
    comments: values.comments.trim(),
  };
}

const PACKAGE_NAMES: Record<string, keyof PackageValues> = {
  quantity: 'quantity',
  piece_type: 'pieceType',
  description: 'description',
  length_cm: 'length',
  width_cm: 'width',
  height_cm: 'height',
  weight_kg: 'weight',
};
const SCALARS = ['origin', 'destination', 'type', 'mode', 'comments', 'pickup_date', 'pickup_time', 'payment_mode'];
const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The form input a server violation names (`shipment.receiver.phone` → `receiver.phone`,
 * `packages[0].weight_kg` → `packages.0.weight`); null for a field the form has no input for. */
export function bookingFieldOf(path: string): string | null {
  const segments = path
    .trim()
    .replace(/^shipment\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const [head, second, third] = segments;
  if (head === 'shipper' || head === 'receiver') {
    return ['name', 'address', 'phone', 'email'].includes(second) ? `${head}.${second}` : null;
  }
  if (head === 'packages') {
    const name = third === undefined ? undefined : (PACKAGE_NAMES[third] ?? PACKAGE_NAMES[third.replace(/([A-Z])/g, '_$1').toLowerCase()]);
    return second !== undefined && /^\d+$/.test(second) && name ? `packages.${second}.${name}` : 'packages';
  }
  if (head === undefined) return null;
  const snake = head.replace(/([A-Z])/g, '_$1').toLowerCase();
  return SCALARS.includes(snake) ? camel(snake) : null;
}

/** The booking prefilled from a quote (its token's claims) and the service chosen: origin and
 * destination as "City, Country", the service's mode, one package line per parcel line
 * (quantity, sides and weight of one). */
export function bookingFromQuote(defaults: BookingValues, quote: QuoteClaims, option: QuotedOption, locale: string): BookingValues {
  const size = (value: number) => (value > 0 ? String(value) : '');
  const mode = MODE_OPTIONS.find((o) => o.value === option.mode);
  return {
    ...defaults,
    mode: mode ? mode.key : defaults.mode,
    origin: placeName(quote.origin.city, quote.origin.country, locale),
    destination: placeName(quote.destination.city, quote.destination.country, locale),
    packages: quote.parcels.map((parcel) => ({
      ...blankPackage(),
      quantity: String(parcel.count),
      length: size(parcel.lengthCm),
      width: size(parcel.widthCm),
      height: size(parcel.heightCm),
      weight: size(parcel.weightKg),
    })),
  };
}
