// The pickup settings as the form edits them: the cut-off as "HH:MM", the closed weekdays as
// seven checkboxes and the closed dates as "YYYY-MM-DD" inputs.
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PickupSettings, PickupSettingsSchema } from '@/gen/logistics/v1/customer_pb';

/** 1 (Monday) .. 7 (Sunday), as the server numbers them. */
export const WEEKDAYS = [
  { day: 1, label: 'Monday' },
  { day: 2, label: 'Tuesday' },
  { day: 3, label: 'Wednesday' },
  { day: 4, label: 'Thursday' },
  { day: 5, label: 'Friday' },
  { day: 6, label: 'Saturday' },
  { day: 7, label: 'Sunday' },
] as const;

export type PickupSettingsValues = {
  cutoff: string;
  closedWeekdays: number[];
  closedDates: string[];
};

const pad = (n: number) => String(n).padStart(2, '0');

export function toPickupValues(settings: PickupSettings): PickupSettingsValues {
  const cutoff = settings.sameDayCutoff;
  return {
    cutoff: `${pad(cutoff?.hours ?? 0)}:${pad(cutoff?.minutes ?? 0)}`,
    closedWeekdays: [...settings.closedWeekdays].sort((a, b) => a - b),
    closedDates: settings.closedDates.map((d) => `${String(d.year).padStart(4, '0')}-${pad(d.month)}-${pad(d.day)}`),
  };
}

/** The settings to save; an empty date input is skipped, a malformed one sent as zeros for the
 * server to name. */
export function toPickupSettings(values: PickupSettingsValues): MessageInitShape<typeof PickupSettingsSchema> {
  const time = /^(\d{1,2}):(\d{2})/.exec(values.cutoff);
  return {
    sameDayCutoff: time ? { hours: Number(time[1]), minutes: Number(time[2]) } : { hours: 0, minutes: 0 },
    closedWeekdays: [...new Set(values.closedWeekdays)].sort((a, b) => a - b),
    closedDates: values.closedDates
      .filter((d) => d.trim() !== '')
      .map((d) => {
        const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d);
        return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : { year: 0, month: 0, day: 0 };
      }),
  };
}

/** A server field path ("settings.closed_dates[2]", "same_day_cutoff") → the form's input. */
export function pickupInputOf(field: string): { name: 'cutoff' | 'closedWeekdays' | 'closedDates'; index?: number } | undefined {
  const path = field.replace(/^settings\./, '');
  if (path.startsWith('same_day_cutoff')) return { name: 'cutoff' };
  if (path.startsWith('closed_weekdays')) return { name: 'closedWeekdays' };
  const date = /^closed_dates(?:\[(\d+)\])?/.exec(path);
  if (date) return { name: 'closedDates', index: date[1] === undefined ? undefined : Number(date[1]) };
  return undefined;
}
