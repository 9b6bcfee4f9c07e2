import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { watchShipmentChanges } from '../api/watch-shipment-changes';
import { addMessage, isStale, throttle, type Change } from '../utils/stale-queries';

/** At most one round of reading again per this long, however fast the changes come. */
const ROUND_MS = 300;

/**
 * While `enabled` (the signed-in user reads shipments), follows the staff's change feed and has
 * what the open screens show read again: the shipments list, the dashboard figures, the
 * exceptions queue and its counts, and a changed shipment's View dialog, notes and activity; all
 * of them after a (re)connection or when more changed than the feed names. Forms copy what they
 * edit when they open, so a reload under them never wipes what is being typed.
 */
export function useShipmentChanges(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let pending: Change | null = null;
    const round = throttle(() => {
      const change = pending;
      pending = null;
      if (!change) return;
      // Only what is cached; what is on screen loads again at once, the rest when next shown.
      void queryClient.invalidateQueries({ predicate: (query) => isStale(query.queryKey, change, query.state.data) });
    }, ROUND_MS);
    watchShipmentChanges((message, first) => {
      pending = addMessage(pending, message, first);
      if (pending) round.schedule();
    }, controller.signal);
    return () => {
      controller.abort();
      round.cancel();
    };
  }, [enabled, queryClient]);
}
