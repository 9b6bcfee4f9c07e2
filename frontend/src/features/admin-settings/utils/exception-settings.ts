// The exceptions settings as the form edits them: numbers as typed (text), so a half-typed or
// wrong value is said next to its field rather than lost.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ExceptionSettings, ExceptionSettingsSchema } from '@/gen/logistics/v1/shipment_exception_service_pb';

export const STALLED_MODES = [
  { name: 'land', label: 'Land' },
  { name: 'air', label: 'Air' },
  { name: 'sea', label: 'Sea' },
] as const;

/** The digest's languages, each named in itself. */
export const DIGEST_LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'fr', label: 'Français' },
  { code: 'es', label: 'Español' },
  { code: 'ar', label: 'العربية' },
] as const;

export const MIN_STALLED_HOURS = 1;
export const MAX_STALLED_HOURS = 720;

export type ExceptionSettingsValues = {
  land: string;
  air: string;
  sea: string;
  operationsEmail: string;
  languageCode: string;
  digestHour: string;
};

export type ExceptionSettingsField = keyof ExceptionSettingsValues;

export function toExceptionValues(settings: ExceptionSettings): ExceptionSettingsValues {
  return {
    land: String(settings.landStalledHours),
    air: String(settings.airStalledHours),
    sea: String(settings.seaStalledHours),
    operationsEmail: settings.operationsEmail,
    languageCode: settings.digestLanguageCode || 'en',
    digestHour: String(settings.digestHour),
  };
}

/** A whole number as typed, or -1 (which the server refuses, naming the field) for anything else. */
function whole(text: string): number {
  return /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : -1;
}

export function toExceptionSettings(values: ExceptionSettingsValues): MessageInitShape<typeof ExceptionSettingsSchema> {
  return {
    landStalledHours: whole(values.land),
    airStalledHours: whole(values.air),
    seaStalledHours: whole(values.sea),
    operationsEmail: values.operationsEmail.trim(),
    digestLanguageCode: values.languageCode,
    digestHour: whole(values.digestHour),
  };
}

/** What the form knows is wrong before asking the server: stalled hours outside 1..720 and an
 * hour outside 0..23 (the server checks everything again, the e-mail address included). */
export function exceptionSettingsErrors(values: ExceptionSettingsValues): Partial<Record<ExceptionSettingsField, string>> {
  const errors: Partial<Record<ExceptionSettingsField, string>> = {};
  for (const { name } of STALLED_MODES) {
    const hours = whole(values[name]);
    if (hours < MIN_STALLED_HOURS || hours > MAX_STALLED_HOURS) {
      errors[name] = `Enter a whole number of hours from ${MIN_STALLED_HOURS} to ${MAX_STALLED_HOURS}`;
    }
  }
  const hour = whole(values.digestHour);
  if (hour < 0 || hour > 23) errors.digestHour = 'Choose an hour from 0 to 23';
  return errors;
}

/** A server field path ("settings.air_stalled_hours", "digest_hour") → the form's field. */
export function exceptionFieldOf(path: string): ExceptionSettingsField | undefined {
  const field = path.replace(/^settings\./, '');
  if (field.startsWith('land_stalled_hours')) return 'land';
  if (field.startsWith('air_stalled_hours')) return 'air';
  if (field.startsWith('sea_stalled_hours')) return 'sea';
  if (field.startsWith('operations_email')) return 'operationsEmail';
  if (field.startsWith('digest_language_code')) return 'languageCode';
  if (field.startsWith('digest_hour')) return 'digestHour';
  return undefined;
}

/** 7 → "07:00". */
export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}
