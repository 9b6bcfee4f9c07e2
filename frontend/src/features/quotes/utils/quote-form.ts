// The quote form's values, its own checks, the request it sends and where a server violation
// goes. Pure.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CreateQuoteRequestSchema } from '@/gen/logistics/v1/rate_card_service_pb';

export type ParcelValues = { weight: string; length: string; width: string; height: string; count: string };

export type QuoteFormValues = {
  originCountry: string;
  originCity: string;
  destinationCountry: string;
  destinationCity: string;
  parcels: ParcelValues[];
};

export const MAX_PARCELS = 20;
const MAX_WEIGHT_KG = 10_000;
const MAX_SIDE_CM = 1_000;
const MAX_COUNT = 999;
const MAX_CITY = 80;

export function blankParcel(): ParcelValues {
  return { weight: '', length: '', width: '', height: '', count: '1' };
}

export function quoteDefaults(): QuoteFormValues {
  return { originCountry: '', originCity: '', destinationCountry: '', destinationCity: '', parcels: [blankParcel()] };
}

/** "2,5" or "2.5" → 2.5; empty or not a number → NaN. */
export function parseDecimal(text: string): number {
  const trimmed = text.trim().replace(',', '.');
  return /^\d+(\.\d+)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** What is wrong with a value, as a message id of the quote catalogue; null when it is fine. */
export type Problem = string | null;

export function weightProblem(text: string): Problem {
  if (!text.trim()) return 'quote.error.weight_required';
  const value = parseDecimal(text);
  return value > 0 && value <= MAX_WEIGHT_KG ? null : 'quote.error.weight_invalid';
}

/** A side: empty is fine when all three are (the parcel is priced by weight alone). */
export function sideProblem(text: string, parcel: ParcelValues): Problem {
  const sides = [parcel.length, parcel.width, parcel.height];
  if (!text.trim()) return sides.every((s) => !s.trim()) ? null : 'quote.error.sides_all_or_none';
  const value = parseDecimal(text);
  return value > 0 && value <= MAX_SIDE_CM ? null : 'quote.error.side_invalid';
}

export function countProblem(text: string): Problem {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return 'quote.error.count_invalid';
  const value = Number(trimmed);
  return value >= 1 && value <= MAX_COUNT ? null : 'quote.error.count_invalid';
}

export function countryProblem(code: string): Problem {
  return /^[A-Z]{2}$/.test(code) ? null : 'quote.error.country_required';
}

export function cityProblem(text: string): Problem {
  return text.trim().length <= MAX_CITY ? null : 'quote.error.city_invalid';
}

/** The request (QuoteService.CreateQuote or CustomerPortalService.CreateQuote). */
export function toQuoteRequest(values: QuoteFormValues): MessageInitShape<typeof CreateQuoteRequestSchema> {
  const side = (text: string) => (text.trim() ? parseDecimal(text) : 0);
  return {
    origin: { country: values.originCountry, city: values.originCity.trim() },
    destination: { country: values.destinationCountry, city: values.destinationCity.trim() },
    parcels: values.parcels.map((p) => ({
      weightKg: parseDecimal(p.weight),
      lengthCm: side(p.length),
      widthCm: side(p.width),
      heightCm: side(p.height),
      count: Number(p.count.trim()),
    })),
  };
}

type ParcelField = keyof ParcelValues;
export type QuoteFieldName =
  | 'originCountry'
  | 'originCity'
  | 'destinationCountry'
  | 'destinationCity'
  | 'parcels'
  | `parcels.${number}.${ParcelField}`;

const PLACE_FIELDS: Record<string, QuoteFieldName> = {
  'origin.country': 'originCountry',
  'origin.city': 'originCity',
  'destination.country': 'destinationCountry',
  'destination.city': 'destinationCity',
};

const PARCEL_FIELDS: Record<string, ParcelField> = {
  weight_kg: 'weight',
  length_cm: 'length',
  width_cm: 'width',
  height_cm: 'height',
  count: 'count',
};

const snake = (name: string) => name.replace(/([A-Z])/g, '_$1').toLowerCase();

/** The form's input a server violation names (`origin.country` → `originCountry`,
 * `parcels[0].weight_kg` → `parcels.0.weight`, `parcels` → the list); null for none of them. */
export function quoteFieldOf(path: string): QuoteFieldName | null {
  const normal = path
    .trim()
    .replace(/^(request|quote)\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .map(snake)
    .join('.');
  if (PLACE_FIELDS[normal]) return PLACE_FIELDS[normal];
  if (normal === 'origin') return 'originCountry';
  if (normal === 'destination') return 'destinationCountry';
  const parcel = /^parcels(?:\.(\d+)(?:\.([a-z_]+))?)?$/.exec(normal);
  if (!parcel) return null;
  const [, index, field] = parcel;
  if (index === undefined) return 'parcels';
  if (field === undefined) return `parcels.${Number(index)}.weight`;
  const name = PARCEL_FIELDS[field];
  return name ? `parcels.${Number(index)}.${name}` : 'parcels';
}

/** The generic sentence, in the page's language, for a server violation of `field` (other
 * languages than English show it instead of the server's English). */
export function invalidMessageId(field: QuoteFieldName): string {
  if (field === 'originCountry' || field === 'destinationCountry') return 'quote.error.country_required';
  if (field === 'originCity' || field === 'destinationCity') return 'quote.error.city_invalid';
  if (field === 'parcels') return 'quote.error.parcels_invalid';
  if (field.endsWith('.weight')) return 'quote.error.weight_invalid';
  if (field.endsWith('.count')) return 'quote.error.count_invalid';
  return 'quote.error.side_invalid';
}
