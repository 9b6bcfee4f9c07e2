import type { Date as ProtoDate } from '@/gen/logistics/v1/shipment_pb';
import { useToday } from '@/hooks/use-today';
import { EMPTY_VALUE, formatDateParts } from '@/utils/format';
import { etaLabel, etaStatus } from '../utils/eta';

/** The expected delivery date, with "on time", "today", "late by N days" or "delivered". */
export function ExpectedDelivery({ date, delivered }: { date: ProtoDate | undefined; delivered: boolean }) {
  const today = useToday();
  const eta = etaStatus(date, today, delivered);
  const label = etaLabel(eta);
  return (
    <>
      <span className="eta-date">{date ? formatDateParts(date.year, date.month, date.day) : EMPTY_VALUE}</span>
      {label && (
        <span className={`eta-chip is-${eta.kind}`} data-testid="eta">
          {label}
        </span>
      )}
    </>
  );
}
