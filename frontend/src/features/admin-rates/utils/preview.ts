// The preview's parcel ("5 kg, 40×30×20 cm, Lagos (NG) → Rotterdam (NL)") as a quote request,
// where the server's violations of it go, and a quote option in words.
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  ChargeableWeightBasis,
  QuoteChargeKind,
  type CreateQuoteRequestSchema,
  type QuoteOption,
} from '@/gen/logistics/v1/rate_card_service_pb';
import { formatKg } from '@/utils/format';

export type PreviewValues = {
  fromCountry: string;
  fromCity: string;
  toCountry: string;
  toCity: string;
  weightKg: string;
  lengthCm: string;
  widthCm: string;
  heightCm: string;
};

export const BLANK_PREVIEW: PreviewValues = {
  fromCountry: '',
  fromCity: '',
  toCountry: '',
  toCity: '',
  weightKg: '',
  lengthCm: '',
  widthCm: '',
  heightCm: '',
};

const number = (text: string) => {
  const value = text.trim();
  return /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : 0;
};

/** One parcel between two places; the server checks every value (its violations show at the inputs). */
export function previewRequest(values: PreviewValues): MessageInitShape<typeof CreateQuoteRequestSchema> {
  return {
    origin: { country: values.fromCountry.trim().toUpperCase(), city: values.fromCity.trim() },
    destination: { country: values.toCountry.trim().toUpperCase(), city: values.toCity.trim() },
    parcels: [
      {
        weightKg: number(values.weightKg),
        lengthCm: number(values.lengthCm),
        widthCm: number(values.widthCm),
        heightCm: number(values.heightCm),
        count: 1,
      },
    ],
  };
}

const PREVIEW_FIELDS: Readonly<Record<string, keyof PreviewValues>> = {
  'origin.country': 'fromCountry',
  'origin.city': 'fromCity',
  'destination.country': 'toCountry',
  'destination.city': 'toCity',
  'parcels.0.weight_kg': 'weightKg',
  'parcels.0.length_cm': 'lengthCm',
  'parcels.0.width_cm': 'widthCm',
  'parcels.0.height_cm': 'heightCm',
};

/** The preview's input of a violation ("quote.parcels[0].weight_kg" → weightKg), or null. */
export function previewFieldOfViolation(field: string): keyof PreviewValues | null {
  const path = field
    .trim()
    .replace(/^quote\./, '')
    .replace(/\[(\d+)\]/g, '.$1');
  return PREVIEW_FIELDS[path] ?? null;
}

/** Whether a violation is of the card (rather than of the preview's parcel). */
export function isCardViolation(field: string): boolean {
  return field.trim().startsWith('rate_card');
}

/** "Chargeable weight 12 kg (volumetric weight, larger than the actual 8 kg)" or "… (actual weight)". */
export function chargeableWeightText(option: Pick<QuoteOption, 'chargeableWeightKg' | 'actualWeightKg' | 'chargeableWeightBasis'>): string {
  const why =
    option.chargeableWeightBasis === ChargeableWeightBasis.VOLUMETRIC
      ? `volumetric weight, larger than the actual ${formatKg(option.actualWeightKg)}`
      : 'actual weight';
  return `Chargeable weight ${formatKg(option.chargeableWeightKg)} (${why})`;
}

/** (3, 5) → "3–5 days", (2, 2) → "2 days", (1, 1) → "1 day". */
export function transitDaysText(min: number, max: number): string {
  if (min === max) return `${min} ${min === 1 ? 'day' : 'days'}`;
  return `${min}–${max} days`;
}

const CHARGE_LABELS: Readonly<Record<number, string>> = {
  [QuoteChargeKind.FREIGHT]: 'Freight',
  [QuoteChargeKind.FUEL]: 'Fuel surcharge',
  [QuoteChargeKind.REMOTE_AREA]: 'Remote area',
  [QuoteChargeKind.OVERSIZE]: 'Oversize',
  [QuoteChargeKind.DISCOUNT]: 'Discount',
};

export function chargeLabel(kind: QuoteChargeKind): string {
  return CHARGE_LABELS[kind] ?? 'Other';
}
