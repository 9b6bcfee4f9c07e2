// The pickups queue's filters (day, area, state), kept in the address so a view can be reloaded
// and shared; the day defaults to today.
import { PickupState } from '@/gen/logistics/v1/customer_pb';

export const PICKUP_STATES = [
  { key: 'requested', value: PickupState.REQUESTED, label: 'Requested', tone: 'yellow' },
  { key: 'confirmed', value: PickupState.CONFIRMED, label: 'Confirmed', tone: 'blue' },
  { key: 'collected', value: PickupState.COLLECTED, label: 'Collected', tone: 'green' },
  { key: 'failed', value: PickupState.FAILED, label: 'Failed', tone: 'red' },
] as const;

type PickupStateKey = (typeof PICKUP_STATES)[number]['key'];

export type PickupParams = {
  /** "YYYY-MM-DD". */
  date: string;
  area: string;
  state: PickupStateKey | 'all';
};

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export function pickupParamsFrom(search: URLSearchParams, today: string): PickupParams {
  const date = search.get('date') ?? '';
  const state = search.get('state') ?? '';
  return {
    date: dateFromIso(date) ? date : today,
    area: (search.get('area') ?? '').slice(0, 100),
    state: PICKUP_STATES.some((s) => s.key === state) ? (state as PickupStateKey) : 'all',
  };
}

/** Today is left out of the address, so the plain link always opens on the current day. */
export function pickupParamsTo(params: PickupParams, today: string): URLSearchParams {
  const out = new URLSearchParams();
  if (params.date && params.date !== today) out.set('date', params.date);
  if (params.area) out.set('area', params.area);
  if (params.state !== 'all') out.set('state', params.state);
  return out;
}

export function stateFilter(state: PickupParams['state']): PickupState {
  return PICKUP_STATES.find((s) => s.key === state)?.value ?? PickupState.UNSPECIFIED;
}

export function pickupState(state: PickupState) {
  return PICKUP_STATES.find((s) => s.value === state) ?? { key: 'unknown', label: 'Unknown', tone: 'grey' as const };
}

/** "2026-12-01" → { year: 2026, month: 12, day: 1 }; undefined for anything not a real day. */
export function dateFromIso(text: string): { year: number; month: number; day: number } | undefined {
  const match = ISO_DAY.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/** What each state allows. */
export function pickupActions(state: PickupState) {
  const open = state === PickupState.REQUESTED || state === PickupState.CONFIRMED;
  return { assign: open, confirm: state === PickupState.REQUESTED, collect: open, fail: open };
}
