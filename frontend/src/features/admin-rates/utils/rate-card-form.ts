// The edit screen's values ↔ the RateCard message: every number is typed as text and read here
// (amounts exactly, as minor units), what cannot be read is an error at its input, and the
// server's field violations (`rate_card.lanes[2].weight_breaks[0].up_to_kg`) find their inputs.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RateCard, RateCardSchema } from '@/gen/logistics/v1/rate_card_service_pb';
import type { Date as ProtoDate } from '@/gen/logistics/v1/shipment_pb';
import { ShipmentMode } from '@/gen/logistics/v1/shipment_pb';
import { MODE_OPTIONS, keyOf, valueOf } from '@/utils/shipment';
import { basisPointsToPercent, currencyDecimals, minorToInput, parseMoney, parsePercent } from '@/utils/money';

/** The id of the company's own card; any other is a customer's id. */
export const PUBLIC_CARD_ID = 'public';

/** The card's limits (rate_card_service.proto). */
export const MAX_ZONES = 200;
export const MAX_SERVICES = 20;
export const MAX_LANES = 2000;
export const MAX_BREAKS = 50;

export type WeightBreakValues = { upToKg: string; price: string; perKg: boolean };

export type LaneValues = {
  serviceCode: string;
  originZone: string;
  destinationZone: string;
  minimumCharge: string;
  volumetricDivisor: string;
  /** Fuel surcharge in percent ("12.5"). */
  fuelPercent: string;
  remoteAreaSurcharge: string;
  oversizeSurcharge: string;
  transitDaysMin: string;
  transitDaysMax: string;
  weightBreaks: WeightBreakValues[];
};

export type ZoneValues = { code: string; name: string; /** "NG, GH, NG/Lagos" */ places: string; remote: boolean };

/** `mode` is a MODE_OPTIONS key ('air_shipping'), '' for none yet. */
export type ServiceValues = { code: string; name: string; mode: string };

type Pricing = 'discount' | 'own';

export type RateCardFormValues = {
  currency: string;
  /** YYYY-MM-DD, '' for no limit. */
  validFrom: string;
  validUntil: string;
  oversizeLengthCm: string;
  oversizeWeightKg: string;
  /** A customer's card: a discount off the public card, or prices of its own. */
  pricing: Pricing;
  /** Percent ("12.5"), for a discount. */
  discountPercent: string;
  zones: ZoneValues[];
  services: ServiceValues[];
  lanes: LaneValues[];
};

export type RateCardInit = MessageInitShape<typeof RateCardSchema>;

/** An input's path in the form ("lanes.2.weightBreaks.0.price") and what is wrong with it. */
export type FormProblem = { path: string; message: string };

export function blankWeightBreak(): WeightBreakValues {
  return { upToKg: '', price: '', perKg: false };
}

export function blankLane(first?: { service?: string; zone?: string }): LaneValues {
  return {
    serviceCode: first?.service ?? '',
    originZone: first?.zone ?? '',
    destinationZone: first?.zone ?? '',
    minimumCharge: '',
    volumetricDivisor: '5000',
    fuelPercent: '',
    remoteAreaSurcharge: '',
    oversizeSurcharge: '',
    transitDaysMin: '',
    transitDaysMax: '',
    weightBreaks: [blankWeightBreak()],
  };
}

export function blankZone(): ZoneValues {
  return { code: '', name: '', places: '', remote: false };
}

export function blankService(): ServiceValues {
  return { code: '', name: '', mode: '' };
}

/** A customer's card before its first save: 10 % off the public card. */
export function newCustomerCardValues(): RateCardFormValues {
  return {
    currency: '',
    validFrom: '',
    validUntil: '',
    oversizeLengthCm: '',
    oversizeWeightKg: '',
    pricing: 'discount',
    discountPercent: '',
    zones: [],
    services: [],
    lanes: [],
  };
}

/** A proto Date → "2026-12-01"; unset → ''. */
function dateToInput(date: ProtoDate | undefined): string {
  if (!date || !date.year || !date.month || !date.day) return '';
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** "2026-12-01" → {year, month, day}; '' → undefined (no limit); null when it is no date. */
export function inputToDate(value: string): { year: number; month: number; day: number } | undefined | null {
  const text = value.trim();
  if (text === '') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day };
}

/** 12.5 → "12.5", 0 → '' (an empty input means none). */
function numberToInput(value: number): string {
  return value ? String(value) : '';
}

/** "NG, GH, NG/Lagos" → ["NG", "GH", "NG/Lagos"]. */
export function placesOf(text: string): string[] {
  return text
    .split(',')
    .map((place) => place.trim())
    .filter(Boolean);
}

/** The form's values of a card; amounts in the decimals of `currency` (a customer's card: the
 * public card's currency). */
export function cardToForm(card: RateCard, currency = card.currency): RateCardFormValues {
  const discount = card.discountBasisPoints > 0;
  const digits = currencyDecimals(currency);
  const amount = (minor: bigint) => (minor ? minorToInput(minor, digits) : '');
  return {
    currency,
    validFrom: dateToInput(card.validFrom),
    validUntil: dateToInput(card.validUntil),
    oversizeLengthCm: numberToInput(card.oversizeLengthCm),
    oversizeWeightKg: numberToInput(card.oversizeWeightKg),
    pricing: card.id !== PUBLIC_CARD_ID && discount ? 'discount' : 'own',
    discountPercent: discount ? basisPointsToPercent(card.discountBasisPoints) : '',
    zones: card.zones.map((z) => ({ code: z.code, name: z.name, places: z.places.join(', '), remote: z.remote })),
    services: card.services.map((s) => ({
      code: s.code,
      name: s.name,
      mode: s.mode === ShipmentMode.UNSPECIFIED ? '' : keyOf(MODE_OPTIONS, s.mode),
    })),
    lanes: card.lanes.map((l) => ({
      serviceCode: l.serviceCode,
      originZone: l.originZone,
      destinationZone: l.destinationZone,
      minimumCharge: amount(l.minimumChargeMinor),
      volumetricDivisor: numberToInput(l.volumetricDivisor),
      fuelPercent: l.fuelSurchargeBasisPoints ? basisPointsToPercent(l.fuelSurchargeBasisPoints) : '',
      remoteAreaSurcharge: amount(l.remoteAreaSurchargeMinor),
      oversizeSurcharge: amount(l.oversizeSurchargeMinor),
      transitDaysMin: String(l.transitDaysMin),
      transitDaysMax: String(l.transitDaysMax),
      weightBreaks: l.weightBreaks.map((b) => ({ upToKg: String(b.upToKg), price: minorToInput(b.priceMinor, digits), perKg: b.perKg })),
    })),
  };
}

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const WHOLE = /^\d+$/;

/** Reads the inputs; every input it cannot read is a problem at its path. */
class Reader {
  readonly problems: FormProblem[] = [];

  /** The decimals of the card's currency. */
  private readonly digits: number;

  constructor(digits: number) {
    this.digits = digits;
  }

  /** An amount in minor units; empty is 0 unless `required`. */
  money(path: string, text: string, required = false): bigint {
    if (text.trim() === '' && !required) return 0n;
    const minor = parseMoney(text, this.digits);
    if (minor === null) {
      const example = minorToInput(1250n, this.digits);
      this.problems.push({ path, message: text.trim() === '' ? 'Enter an amount.' : `Enter an amount such as ${example}.` });
    }
    return minor ?? 0n;
  }

  /** A decimal number (kg, cm); empty is 0 unless `required`. */
  decimal(path: string, text: string, required = false): number {
    const value = text.trim();
    if (value === '' && !required) return 0;
    if (!DECIMAL.test(value)) {
      this.problems.push({ path, message: value === '' ? 'Enter a number.' : 'Enter a number such as 2.5.' });
      return 0;
    }
    return Number(value);
  }

  /** A whole number; empty is 0 unless `required`. */
  whole(path: string, text: string, required = false): number {
    const value = text.trim();
    if (value === '' && !required) return 0;
    if (!WHOLE.test(value) || value.length > 9) {
      this.problems.push({ path, message: value === '' ? 'Enter a whole number.' : 'Enter a whole number such as 3.' });
      return 0;
    }
    return Number(value);
  }

  percent(path: string, text: string, required = false): number {
    if (text.trim() === '' && !required) return 0;
    const points = parsePercent(text);
    if (points === null) this.problems.push({ path, message: 'Enter a percentage from 0 to 100, such as 12.5.' });
    return points ?? 0;
  }

  date(path: string, text: string) {
    const date = inputToDate(text);
    if (date === null) this.problems.push({ path, message: 'Enter a date.' });
    return date ?? undefined;
  }
}

/** The card to save or preview, or the inputs that cannot be read. `id` and `version` are the
 * card's as it was read (version 0: a customer's first card); amounts are in the decimals of
 * the form's currency (a customer's card holds the public card's). */
export function formToCard(values: RateCardFormValues, id: string, version: number): { card: RateCardInit; problems: FormProblem[] } {
  const read = new Reader(currencyDecimals(values.currency));
  const isPublic = id === PUBLIC_CARD_ID;
  const discount = !isPublic && values.pricing === 'discount';
  const card: RateCardInit = {
    id,
    version,
    currency: values.currency.trim().toUpperCase(),
    validFrom: read.date('validFrom', values.validFrom),
    validUntil: read.date('validUntil', values.validUntil),
    oversizeLengthCm: read.decimal('oversizeLengthCm', values.oversizeLengthCm),
    oversizeWeightKg: read.decimal('oversizeWeightKg', values.oversizeWeightKg),
    discountBasisPoints: discount ? read.percent('discountPercent', values.discountPercent, true) : 0,
  };
  if (!discount) {
    card.zones = values.zones.map((z) => ({ code: z.code.trim(), name: z.name.trim(), places: placesOf(z.places), remote: z.remote }));
    card.services = values.services.map((s) => ({
      code: s.code.trim(),
      name: s.name.trim(),
      mode: s.mode ? valueOf(MODE_OPTIONS, s.mode) : ShipmentMode.UNSPECIFIED,
    }));
    card.lanes = values.lanes.map((l, i) => {
      const at = (name: string) => `lanes.${i}.${name}`;
      return {
        serviceCode: l.serviceCode,
        originZone: l.originZone,
        destinationZone: l.destinationZone,
        minimumChargeMinor: read.money(at('minimumCharge'), l.minimumCharge),
        volumetricDivisor: read.whole(at('volumetricDivisor'), l.volumetricDivisor),
        fuelSurchargeBasisPoints: read.percent(at('fuelPercent'), l.fuelPercent),
        remoteAreaSurchargeMinor: read.money(at('remoteAreaSurcharge'), l.remoteAreaSurcharge),
        oversizeSurchargeMinor: read.money(at('oversizeSurcharge'), l.oversizeSurcharge),
        transitDaysMin: read.whole(at('transitDaysMin'), l.transitDaysMin),
        transitDaysMax: read.whole(at('transitDaysMax'), l.transitDaysMax),
        weightBreaks: l.weightBreaks.map((b, j) => ({
          upToKg: read.decimal(at(`weightBreaks.${j}.upToKg`), b.upToKg, true),
          priceMinor: read.money(at(`weightBreaks.${j}.price`), b.price, true),
          perKg: b.perKg,
        })),
      };
    });
  }
  return { card, problems: read.problems };
}

/** The proto's field names whose input has another name in the form. */
const FORM_NAMES: Readonly<Record<string, string>> = {
  discount_basis_points: 'discountPercent',
  minimum_charge_minor: 'minimumCharge',
  fuel_surcharge_basis_points: 'fuelPercent',
  remote_area_surcharge_minor: 'remoteAreaSurcharge',
  oversize_surcharge_minor: 'oversizeSurcharge',
  price_minor: 'price',
};

const CARD_FIELDS = new Set(['currency', 'validFrom', 'validUntil', 'oversizeLengthCm', 'oversizeWeightKg', 'discountPercent']);
const ZONE_FIELDS = new Set(['code', 'name', 'places', 'remote']);
const SERVICE_FIELDS = new Set(['code', 'name', 'mode']);
const LANE_FIELDS = new Set([
  'serviceCode',
  'originZone',
  'destinationZone',
  'minimumCharge',
  'volumetricDivisor',
  'fuelPercent',
  'remoteAreaSurcharge',
  'oversizeSurcharge',
  'transitDaysMin',
  'transitDaysMax',
]);
const BREAK_FIELDS = new Set(['upToKg', 'price', 'perKg']);

const camel = (name: string) => FORM_NAMES[name] ?? name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The form's input for a violation of the card: "rate_card.lanes[2].weight_breaks[0].up_to_kg"
 * → "lanes.2.weightBreaks.0.upToKg", "rate_card.zones[1].places[0]" → "zones.1.places",
 * "rate_card.lanes[3]" → "lanes.3" (the lane as a whole), "rate_card.zones" → "zones"; null when
 * the form has no such input.
 */
export function formPathOfViolation(field: string): string | null {
  const parts = field
    .trim()
    .replace(/^rate_card\./, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .map(camel);
  const [head, index, sub, breakIndex, breakField] = parts;
  if (head === undefined) return null;
  if (CARD_FIELDS.has(head)) return head;
  const isIndex = (value: string | undefined) => value !== undefined && /^\d+$/.test(value);
  if (head !== 'zones' && head !== 'services' && head !== 'lanes') return null;
  if (!isIndex(index)) return head;
  const row = `${head}.${index}`;
  if (head === 'zones') return sub && ZONE_FIELDS.has(sub) ? `${row}.${sub}` : row;
  if (head === 'services') return sub && SERVICE_FIELDS.has(sub) ? `${row}.${sub}` : row;
  if (sub && LANE_FIELDS.has(sub)) return `${row}.${sub}`;
  if (sub === 'weightBreaks') {
    if (!isIndex(breakIndex)) return `${row}.weightBreaks`;
    return breakField && BREAK_FIELDS.has(breakField) ? `${row}.weightBreaks.${breakIndex}.${breakField}` : `${row}.weightBreaks.${breakIndex}.price`;
  }
  return row;
}

/** The lane a form path is in ("lanes.12.weightBreaks.0.price" → 12), or null. */
export function laneOfPath(path: string): number | null {
  const match = /^lanes\.(\d+)(?:\.|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

/** "EXPRESS_AIR · WA → EU · 4 breaks · 3–5 days": a collapsed lane in one line. */
export function laneSummary(lane: Pick<LaneValues, 'serviceCode' | 'originZone' | 'destinationZone' | 'transitDaysMin' | 'transitDaysMax' | 'weightBreaks'>): string {
  const code = (value: string) => value.trim() || '—';
  const breaks = lane.weightBreaks.length === 1 ? '1 break' : `${lane.weightBreaks.length} breaks`;
  const min = lane.transitDaysMin.trim();
  const max = lane.transitDaysMax.trim();
  let days: string;
  if (!min && !max) days = 'transit days not set';
  else if (!max || min === max) days = `${min || max} ${(min || max) === '1' ? 'day' : 'days'}`;
  else days = `${min || '0'}–${max} days`;
  return [code(lane.serviceCode), `${code(lane.originZone)} → ${code(lane.destinationZone)}`, breaks, days].join(' · ');
}
