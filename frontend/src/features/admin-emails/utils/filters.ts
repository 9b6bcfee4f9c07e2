// The Emails page's filters, kept in the address so a filtered outbox can be shared and reloaded.
import { NotificationState } from '@/gen/logistics/v1/notification_pb';

export const STATES = [
  { value: 'queued', label: 'Queued', state: NotificationState.QUEUED },
  { value: 'sending', label: 'Sending', state: NotificationState.SENDING },
  { value: 'sent', label: 'Sent', state: NotificationState.SENT },
  { value: 'retrying', label: 'Retrying', state: NotificationState.RETRYING },
  { value: 'failed', label: 'Failed', state: NotificationState.FAILED },
] as const;

export type EmailFilters = {
  /** One of STATES' values, or '' for every state. */
  state: string;
  /** Part of the recipient's address or of the tracking number. */
  query: string;
};

export const NO_FILTERS: EmailFilters = { state: '', query: '' };

export function filtersFromParams(params: URLSearchParams): EmailFilters {
  const state = params.get('state') ?? '';
  return {
    state: STATES.some((s) => s.value === state) ? state : '',
    query: (params.get('q') ?? '').trim().slice(0, 200),
  };
}

export function filtersToParams(filters: EmailFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.state) params.set('state', filters.state);
  if (filters.query.trim()) params.set('q', filters.query.trim());
  return params;
}

export function stateOf(filters: EmailFilters): NotificationState {
  return STATES.find((s) => s.value === filters.state)?.state ?? NotificationState.UNSPECIFIED;
}
