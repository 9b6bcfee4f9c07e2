// Dollars typed by the admin ↔ the int64 cents the API stores. Never goes through a binary float.

const INT64_MAX = 9223372036854775807n;

/**
 * "1250.5" → 125050n, "$1,250.50" → 125050n, "0.1" → 10n, ".5" → 50n.
 * Returns null for anything else: empty, negative, more than two decimals, exponents, letters,
 * or more than an int64 can hold.
 */
export function parseDollarsToCents(input: string): bigint | null {
  const text = input.trim().replace(/^\$\s*/, '');
  const match = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d{0,2}))?$/.exec(text);
  if (!match) return null;
  const whole = match[1].replace(/,/g, '');
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  const cents = BigInt(whole || '0') * 100n + BigInt((fraction + '00').slice(0, 2));
  return cents > INT64_MAX ? null : cents;
}

/** 125050n → "1250.50": the value an amount input is pre-filled with. */
export function centsToDollarsInput(cents: bigint): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
