// The audit page's filters, kept in the address so a filtered view can be shared and reloaded.

export type AuditFilters = {
  /** A user's e-mail or id. */
  user: string;
  action: string;
  /** A tracking number, shipment id or user e-mail. */
  target: string;
  /** `YYYY-MM-DD`, both days included. */
  from: string;
  to: string;
};

const KEYS = ['user', 'action', 'target', 'from', 'to'] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function filtersFromParams(params: URLSearchParams): AuditFilters {
  const value = (key: (typeof KEYS)[number]) => (params.get(key) ?? '').trim().slice(0, 254);
  const day = (key: 'from' | 'to') => (DAY.test(value(key)) ? value(key) : '');
  return { user: value('user'), action: value('action'), target: value('target'), from: day('from'), to: day('to') };
}

export function filtersToParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
  }
  return params;
}
