// Amounts and percentages typed by staff ↔ the integers the API stores: minor units of a
// currency (bigint) and basis points. Text is parsed digit by digit, never through a binary float.

const INT64_MAX = 9223372036854775807n;

/** How many decimals an amount of the card's currency takes in an input (its minor units). */
const MONEY_DECIMALS = 2;

const NO_DECIMALS = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMALS = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** The decimals of a currency's minor unit (ISO 4217), as the server reads its CSV: JPY 0, KWD 3,
 * USD and most others 2. */
export function currencyDecimals(currency: string): number {
  const code = currency.trim().toUpperCase();
  if (NO_DECIMALS.has(code)) return 0;
  if (THREE_DECIMALS.has(code)) return 3;
  return MONEY_DECIMALS;
}

/**
 * "12.50" → 1250n, "1,250.5" → 125050n, ".5" → 50n, "7" → 700n. Null for anything else: empty,
 * negative, more decimals than the currency has, exponents, letters, or more than an int64 holds.
 */
export function parseMoney(input: string, decimals = MONEY_DECIMALS): bigint | null {
  const text = input.trim();
  const match = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const whole = match[1].replace(/,/g, '');
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  if (fraction.length > decimals) return null;
  const scale = 10n ** BigInt(decimals);
  const minor = BigInt(whole || '0') * scale + BigInt(fraction.padEnd(decimals, '0') || '0');
  return minor > INT64_MAX ? null : minor;
}

/** 125050n → "1250.50": what an amount input is filled with. */
export function minorToInput(minor: bigint, decimals = MONEY_DECIMALS): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const scale = 10n ** BigInt(decimals);
  const fraction = decimals > 0 ? `.${(abs % scale).toString().padStart(decimals, '0')}` : '';
  return `${negative ? '-' : ''}${abs / scale}${fraction}`;
}

/** "12.5" → 1250, "0" → 0, "100" → 10000: a percentage with up to two decimals as basis points;
 * null for anything else or above 100 %. */
export function parsePercent(input: string): number | null {
  const match = /^(\d{1,3})?(?:\.(\d{0,2}))?$/.exec(input.trim().replace(/\s*%$/, ''));
  if (!match || (match[1] === undefined && !match[2])) return null;
  const points = Number(match[1] ?? '0') * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return points <= 10000 ? points : null;
}

/** 1250 → "12.5", 1000 → "10", 5 → "0.05". */
export function basisPointsToPercent(points: number): string {
  const whole = Math.trunc(points / 100);
  const fraction = String(Math.abs(points % 100)).padStart(2, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
