// A quote's token (Quote.token): a signed JWT whose payload carries what a booking from it needs.
// Read here only to show the quote and prefill the booking; the server verifies the signature
// when the booking is sent. Pure.

type QuotePlace = { country: string; city: string };

type QuotedParcel = { weightKg: number; lengthCm: number; widthCm: number; heightCm: number; count: number };

export type QuotedOption = {
  code: string;
  name: string;
  /** Minor units of the quote's currency. */
  price: bigint;
  /** Chargeable weight, kg. */
  kg: number;
  /** What it travels by (ShipmentMode); 0 when the token does not say. */
  mode: number;
};

export type QuoteClaims = {
  /** `Q-` and 10 characters. */
  id: string;
  expires: Date;
  currency: string;
  origin: QuotePlace;
  destination: QuotePlace;
  parcels: QuotedParcel[];
  options: QuotedOption[];
};

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function base64UrlJson(part: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return null;
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}

function place(value: unknown): QuotePlace | null {
  if (!isObject(value)) return null;
  const country = text(value.country);
  const city = value.city === undefined ? '' : text(value.city);
  return country && city !== null ? { country, city } : null;
}

function parcel(value: unknown): QuotedParcel | null {
  if (!isObject(value)) return null;
  const weightKg = finite(value.weight_kg);
  const count = finite(value.count ?? 1);
  if (weightKg === null || count === null) return null;
  return {
    weightKg,
    lengthCm: finite(value.length_cm) ?? 0,
    widthCm: finite(value.width_cm) ?? 0,
    heightCm: finite(value.height_cm) ?? 0,
    count,
  };
}

function option(value: unknown): QuotedOption | null {
  if (!isObject(value)) return null;
  const code = text(value.code);
  const name = text(value.name) ?? code;
  const price = finite(value.price);
  const kg = finite(value.kg);
  if (!code || name === null || price === null || !Number.isInteger(price) || kg === null) return null;
  const mode = finite(value.mode);
  return { code, name, price: BigInt(price), kg, mode: mode !== null && Number.isInteger(mode) && mode > 0 ? mode : 0 };
}

function all<T>(values: unknown, read: (value: unknown) => T | null): T[] | null {
  if (!Array.isArray(values)) return null;
  const items = values.map(read);
  return items.every((v): v is T => v !== null) ? items : null;
}

/** The claims of a quote's token; null for anything that is not one (other claims are ignored). */
export function readQuoteToken(token: string): QuoteClaims | null {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return null;
  const payload = base64UrlJson(parts[1]);
  if (!isObject(payload) || !isObject(payload.req)) return null;
  const id = text(payload.qid);
  const exp = finite(payload.exp);
  const currency = text(payload.cur);
  const origin = place(payload.req.origin);
  const destination = place(payload.req.destination);
  const parcels = all(payload.req.parcels, parcel);
  const options = all(payload.opts, option);
  if (!id || exp === null || !currency || !/^[A-Z]{3}$/.test(currency) || !origin || !destination || !parcels || parcels.length === 0 || !options) {
    return null;
  }
  return { id, expires: new Date(exp * 1000), currency, origin, destination, parcels, options };
}

/** The quote and its option `serviceCode`, while it can still be booked; null when the token is
 * malformed, has expired or has no such option. */
export function bookableQuote(token: string, serviceCode: string, now: Date = new Date()): { quote: QuoteClaims; option: QuotedOption } | null {
  const quote = readQuoteToken(token);
  if (!quote || quote.expires.getTime() <= now.getTime()) return null;
  const chosen = quote.options.find((o) => o.code === serviceCode);
  return chosen ? { quote, option: chosen } : null;
}
