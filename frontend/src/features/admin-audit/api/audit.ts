// The audit log's one call: entries matching the filters, newest first.
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { AuditFilters } from '../utils/filters';

const PAGE_SIZE = 50;

/** The start of a `YYYY-MM-DD` day in the browser's time zone. */
function startOfDay(day: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date);
}

/** ListAuditEntries' filters (50 entries a page). */
export function auditEntriesRequest(filters: AuditFilters) {
  const end = filters.to ? startOfDay(filters.to) : undefined;
  end?.setDate(end.getDate() + 1);
  return {
    pageSize: PAGE_SIZE,
    actor: filters.user,
    action: filters.action,
    target: filters.target,
    startTime: filters.from ? timestampFromDate(startOfDay(filters.from)) : undefined,
    endTime: end ? timestampFromDate(end) : undefined,
  };
}
