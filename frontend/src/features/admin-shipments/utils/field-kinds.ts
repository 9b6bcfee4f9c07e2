// How each kind of shipment field goes between its form input (a string, as the input holds it)
// and its message value: the new form's value, create, edit (what counts as a change), the View.
import type { HTMLInputTypeAttribute } from 'react';
import { company } from '@/config/company';
import { LANGUAGES } from '@/config/languages';
import type { Date as ProtoDate, TimeOfDay } from '@/gen/logistics/v1/shipment_pb';
import { EMPTY_VALUE, formatCents, formatDateParts, formatKg, formatTimeOfDay } from '@/utils/format';
import { keyOf, valueOf, type EnumOption } from '@/utils/shipment';
import { minorToInput, parseMoney } from '@/utils/money';

/** The attributes of an `<input>`. */
export type InputAttributes = {
  type?: HTMLInputTypeAttribute;
  step?: string;
  min?: string;
  inputMode?: 'decimal' | 'numeric' | 'email' | 'tel' | 'text';
  /** A check the browser cannot make; the message is shown under the input. */
  validate?: (value: string) => true | string;
};

/** How the form shows a field: an input, a textarea, or a select with these choices (a choice
 * "Select…" first when the field may be left unset). */
export type Control =
  | { element: 'input'; attributes: InputAttributes }
  | { element: 'textarea' }
  | { element: 'select'; choices: ReadonlyArray<{ key: string; label: string; lang?: string }>; unset: boolean }
  /** One of the customers (ListCustomers), searchable by name; empty for none. */
  | { element: 'customer' };

/** A field with one input: T is the message value, I what the create/update payload takes.
 * Methods, not function properties, so any kind fits where the table is walked as a whole. */
export type ScalarKind<T, I = T> = {
  control: Control;
  /** The input's value in a new shipment's form. */
  blank: string;
  /** The input's value for a stored value. */
  toInput(value: T): string;
  /** The value an input means; null when it means nothing (then zero). */
  parse(text: string): I | null;
  /** What an input that means nothing sends; undefined: nothing (the field stays unset). */
  zero: I | undefined;
  same(parsed: I, stored: T): boolean;
  /** The value as the View dialog shows it. */
  show(value: T): string;
};

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

/** A number as an input shows it: 12.5 → "12.5". */
function numberInputValue(n: number): string {
  return Number.isFinite(n) ? String(n) : '0';
}

// ---------- the kinds ----------

const same = <T>(a: T, b: T) => a === b;

/** Free text, sent trimmed. */
export const text: ScalarKind<string> = {
  control: { element: 'input', attributes: {} },
  blank: '',
  toInput: (value) => value,
  parse: (value) => value.trim(),
  zero: '',
  same,
  show: (value) => value,
};

/** Text over several lines. */
export const longText: ScalarKind<string> = { ...text, control: { element: 'textarea' } };

/** A count, at least 1 in the form; 1 in a new shipment. */
export const integer: ScalarKind<number> = {
  control: { element: 'input', attributes: { type: 'number', step: '1', min: '1', inputMode: 'numeric' } },
  blank: '1',
  toInput: (value) => String(value),
  parse: parseInteger,
  zero: 0,
  same,
  show: (value) => String(value),
};

/** Kilograms (or centimetres in a package line), 0 in a new shipment. */
export const decimal: ScalarKind<number> = {
  control: { element: 'input', attributes: { type: 'number', step: 'any', min: '0', inputMode: 'decimal' } },
  blank: '0',
  toInput: numberInputValue,
  parse: parseDecimal,
  zero: 0,
  same,
  show: formatKg,
};

const FREIGHT_FORMAT_MESSAGE = 'Enter the amount in dollars, with at most two decimals (e.g. 1250.50).';

/** Dollars in the form, exact int64 cents in the message. */
export const money: ScalarKind<bigint> = {
  control: {
    element: 'input',
    attributes: {
      type: 'number',
      step: '0.01',
      min: '0',
      inputMode: 'decimal',
      validate: (value) => (value.trim() === '' || parseMoney(value) !== null ? true : FREIGHT_FORMAT_MESSAGE),
    },
  },
  blank: '0',
  toInput: (cents: bigint) => minorToInput(cents),
  parse: (text: string) => parseMoney(text),
  zero: 0n,
  same,
  show: (value) => formatCents(value, company.currency),
};

type DateInit = { year: number; month: number; day: number };

/** A calendar date (YYYY-MM-DD in a date input); unset when empty. */
export const date: ScalarKind<ProtoDate | undefined, DateInit> = {
  control: { element: 'input', attributes: { type: 'date' } },
  blank: '',
  toInput: (d) => (d && d.year && d.month && d.day ? `${String(d.year).padStart(4, '0')}-${pad2(d.month)}-${pad2(d.day)}` : ''),
  parse: parseDateInput,
  zero: undefined,
  same: (a, b) => !!b && a.year === b.year && a.month === b.month && a.day === b.day,
  show: (d) => (d ? formatDateParts(d.year, d.month, d.day) : EMPTY_VALUE),
};

type TimeInit = { hours: number; minutes: number };

/** A time of day (HH:MM in a time input); unset when empty. */
export const time: ScalarKind<TimeOfDay | undefined, TimeInit> = {
  control: { element: 'input', attributes: { type: 'time' } },
  blank: '',
  toInput: (t) => (t ? `${pad2(t.hours)}:${pad2(t.minutes)}` : ''),
  parse: parseTimeInput,
  zero: undefined,
  same: (a, b) => !!b && a.hours === b.hours && a.minutes === b.minutes,
  show: (t) => (t ? formatTimeOfDay(t.hours, t.minutes) : EMPTY_VALUE),
};

/** One of an enum's values, chosen by its key; unset ("Select…") unless `blank` names one. */
export function choice<E extends number>(
  options: readonly EnumOption<E>[],
  show: (value: E) => string,
  blank = '',
): ScalarKind<E> {
  return {
    control: { element: 'select', choices: options, unset: blank === '' },
    blank,
    toInput: (value) => keyOf(options, value),
    parse: (key) => valueOf(options, key),
    zero: 0 as E,
    same,
    show,
  };
}

/** The language of a shipment's e-mails: English when unset. */
export const language: ScalarKind<string> = {
  control: {
    element: 'select',
    choices: LANGUAGES.map((l) => ({ key: l.code, label: l.name, lang: l.code })),
    unset: false,
  },
  blank: 'en',
  toInput: (code) => code || 'en',
  parse: (code) => code,
  zero: undefined,
  same: (code, stored) => code === (stored || 'en'),
  show: (code) => LANGUAGES.find((l) => l.code === (code || 'en'))?.name ?? code,
};

/** The customer a shipment is attached to, by id: none when empty (an edit that empties it
 * detaches it). The View dialog shows the customer's name (ShipmentDetailsDialog). */
export const customer: ScalarKind<string> = {
  control: { element: 'customer' },
  blank: '',
  toInput: (id) => id,
  parse: (id) => id.trim(),
  zero: '',
  same,
  show: (id) => id || EMPTY_VALUE,
};

/** The message value a create sends for an input. */
export function createValue<T, I>(kind: ScalarKind<T, I>, input: string): I | undefined {
  return kind.parse(input) ?? kind.zero;
}

/** The value an edit sends for an input, or undefined when it means the stored value. Empty
 * means empty: an emptied optional text clears it (a required input cannot be left empty). */
export function changedValue<T, I>(kind: ScalarKind<T, I>, input: string, stored: T): I | undefined {
  const value = kind.parse(input) ?? kind.zero;
  if (value === undefined || kind.same(value, stored)) return undefined;
  return value;
}
