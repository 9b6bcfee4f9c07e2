// The exceptions queue in words: the kinds, states and assignee filters as the address and the
// screen name them, a failed attempt's reason, and how long an exception has stood.
import { ShipmentExceptionKind, ShipmentExceptionState } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { DeliveryAttemptFailure } from '@/gen/logistics/v1/shipment_pb';

export type KindKey = 'late' | 'stalled' | 'on_hold' | 'failed_delivery_attempt' | 'missing_proof_of_delivery';

/** Every kind in the order of the enum (and of GetShipmentExceptionCounts), as the address
 * (`?kind=late`) and the screen name it. */
export const EXCEPTION_KINDS: ReadonlyArray<{ key: KindKey; value: ShipmentExceptionKind; label: string; tone: 'red' | 'yellow' | 'blue' | 'grey' }> = [
  { key: 'late', value: ShipmentExceptionKind.LATE, label: 'Late', tone: 'red' },
  { key: 'stalled', value: ShipmentExceptionKind.STALLED, label: 'Stalled', tone: 'grey' },
  { key: 'on_hold', value: ShipmentExceptionKind.ON_HOLD, label: 'On hold', tone: 'yellow' },
  { key: 'failed_delivery_attempt', value: ShipmentExceptionKind.FAILED_DELIVERY_ATTEMPT, label: 'Failed delivery attempt', tone: 'red' },
  { key: 'missing_proof_of_delivery', value: ShipmentExceptionKind.MISSING_PROOF_OF_DELIVERY, label: 'Missing proof of delivery', tone: 'blue' },
];

/** ShipmentExceptionKind.ON_HOLD → "On hold"; unknown → "Other". */
export function kindLabel(kind: ShipmentExceptionKind): string {
  return EXCEPTION_KINDS.find((k) => k.value === kind)?.label ?? 'Other';
}

export function kindTone(kind: ShipmentExceptionKind): string {
  return EXCEPTION_KINDS.find((k) => k.value === kind)?.tone ?? 'grey';
}

const FAILURES: ReadonlyArray<{ value: DeliveryAttemptFailure; label: string }> = [
  { value: DeliveryAttemptFailure.NOBODY_HOME, label: 'Nobody home' },
  { value: DeliveryAttemptFailure.REFUSED, label: 'Refused' },
  { value: DeliveryAttemptFailure.ADDRESS_PROBLEM, label: 'Address problem' },
];

/** A failed delivery attempt's reason in words; '' when none is given. */
export function failureLabel(failure: DeliveryAttemptFailure): string {
  return FAILURES.find((f) => f.value === failure)?.label ?? '';
}

export type StateKey = 'open' | 'resolved';
export type AssigneeKey = 'anyone' | 'me' | 'none';

export const ASSIGNEE_OPTIONS: ReadonlyArray<{ key: AssigneeKey; label: string }> = [
  { key: 'anyone', label: 'Anyone' },
  { key: 'me', label: 'Assigned to me' },
  { key: 'none', label: 'Unassigned' },
];

/** The queue's filter as the address keeps it: `?kind=late&state=resolved&assignee=me`; the
 * defaults (every kind, open, anyone's) are left out. */
export type ExceptionParams = { kind: KindKey | 'all'; state: StateKey; assignee: AssigneeKey };

export function exceptionParamsFrom(search: URLSearchParams): ExceptionParams {
  const kind = search.get('kind') ?? '';
  const assignee = search.get('assignee') ?? '';
  return {
    kind: EXCEPTION_KINDS.find((k) => k.key === kind)?.key ?? 'all',
    state: search.get('state') === 'resolved' ? 'resolved' : 'open',
    assignee: ASSIGNEE_OPTIONS.find((a) => a.key === assignee)?.key ?? 'anyone',
  };
}

export function exceptionParamsTo(params: ExceptionParams): URLSearchParams {
  const out = new URLSearchParams();
  if (params.kind !== 'all') out.set('kind', params.kind);
  if (params.state !== 'open') out.set('state', params.state);
  if (params.assignee !== 'anyone') out.set('assignee', params.assignee);
  return out;
}

/** The ListShipmentExceptions filter of the address's. */
export function listFilter(params: ExceptionParams): { kind: ShipmentExceptionKind; state: ShipmentExceptionState; assigneeId: string } {
  return {
    kind: EXCEPTION_KINDS.find((k) => k.key === params.kind)?.value ?? ShipmentExceptionKind.UNSPECIFIED,
    state: params.state === 'resolved' ? ShipmentExceptionState.RESOLVED : ShipmentExceptionState.OPEN,
    assigneeId: params.assignee === 'anyone' ? '' : params.assignee,
  };
}

/** The most the server counts (total_size and each count go up to 1,001, "1,000+"). */
const MAX_COUNTED = 1_000;

/** 3 → "3", 1001 → "1,000+". */
export function countText(count: number | bigint): string {
  const n = Number(count);
  return n > MAX_COUNTED ? `${MAX_COUNTED.toLocaleString('en-US')}+` : n.toLocaleString('en-US');
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** How long an exception has stood, from its `since` to `now`: "for 5 minutes", "for 3 hours"
 * (under two days), "for 3 days"; "for less than a minute" at first (and for a `since` a clock
 * puts a little ahead). */
export function formatSince(since: Date, now: Date): string {
  const elapsed = now.getTime() - since.getTime();
  if (!Number.isFinite(elapsed) || elapsed < MINUTE) return 'for less than a minute';
  if (elapsed < HOUR) return `for ${plural(Math.floor(elapsed / MINUTE), 'minute')}`;
  if (elapsed < 2 * DAY) return `for ${plural(Math.floor(elapsed / HOUR), 'hour')}`;
  return `for ${plural(Math.floor(elapsed / DAY), 'day')}`;
}
