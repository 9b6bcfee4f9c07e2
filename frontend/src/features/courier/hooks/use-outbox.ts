// Sends the kept actions whenever the phone may be online: at start, after each new action,
// when the browser says it is back online, and every few seconds while some wait.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { sendAction } from '../api/courier';
import { allActions, markConflict, onOutboxChange, removeAction, type QueuedAction } from '../utils/outbox';

const RETRY_MS = 5_000;

export type Outbox = {
  /** Waiting to be sent, oldest first. */
  waiting: QueuedAction[];
  /** Refused by the server: the courier reads why and dismisses them. */
  conflicts: QueuedAction[];
  online: boolean;
  signedOut: boolean;
  dismiss: (action: QueuedAction) => void;
};

let flushing: Promise<void> | null = null;

/** Shipments whose actions are sent at once; each shipment's own go one after another. */
const LANES = 4;

/** Sends the waiting actions: each shipment's in the order kept, four shipments at a time; stops
 * at the first the network refuses (the rest wait for the next try). */
function flush(onSignedOut: () => void, onSent: () => void): Promise<void> {
  flushing ??= (async () => {
    let sent = false;
    try {
      let stopped = false;
      const tried = new Set<number>();
      // Read again after each round: actions kept meanwhile are sent too.
      for (;;) {
        const waiting = (await allActions()).filter((a) => a.conflict === undefined && a.seq !== undefined && !tried.has(a.seq));
        if (waiting.length === 0 || stopped) return;
        const lanes = new Map<string, QueuedAction[]>();
        for (const action of waiting) lanes.set(action.trackingNumber, [...(lanes.get(action.trackingNumber) ?? []), action]);
        const queue = [...lanes.values()];
        const lane = async () => {
          for (let actions = queue.shift(); actions && !stopped; actions = queue.shift()) {
            for (const action of actions) {
              if (stopped || action.seq === undefined) return;
              tried.add(action.seq);
              const result = await sendAction(action);
              if (result.kind === 'sent') {
                await removeAction(action.seq);
                sent = true;
              } else if (result.kind === 'refused') {
                await markConflict(action, result.message);
              } else {
                stopped = true;
                if (result.kind === 'signed-out') onSignedOut();
                return;
              }
            }
          }
        };
        await Promise.all(Array.from({ length: LANES }, lane));
      }
    } finally {
      flushing = null;
      // The round reads again once, not after each of a hundred actions.
      if (sent) onSent();
    }
  })();
  return flushing;
}

function subscribeOnline(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOutbox(): Outbox {
  const queryClient = useQueryClient();
  const online = useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true);
  const [actions, setActions] = useState<QueuedAction[]>([]);
  const [signedOut, setSignedOut] = useState(false);

  const send = useCallback(() => {
    void flush(
      () => setSignedOut(true),
      () => void queryClient.invalidateQueries(),
    );
  }, [queryClient]);

  useEffect(() => {
    let live = true;
    const read = () =>
      void allActions().then((all) => {
        if (live) setActions(all);
      });
    read();
    // Read again when the connection comes or goes: another tab of the app may have kept some.
    window.addEventListener('online', read);
    window.addEventListener('offline', read);
    const unsubscribe = onOutboxChange(() => {
      read();
    });
    // A new action: send it now (it waits behind any older one).
    const unsubscribeSend = onOutboxChange(send);
    return () => {
      live = false;
      window.removeEventListener('online', read);
      window.removeEventListener('offline', read);
      unsubscribe();
      unsubscribeSend();
    };
  }, [send]);

  const waiting = actions.filter((a) => a.conflict === undefined);
  const hasWaiting = waiting.length > 0;
  useEffect(() => {
    if (online) send();
  }, [online, send]);
  useEffect(() => {
    if (!hasWaiting) return;
    const timer = window.setInterval(send, RETRY_MS);
    return () => window.clearInterval(timer);
  }, [hasWaiting, send]);

  return {
    waiting,
    conflicts: actions.filter((a) => a.conflict !== undefined),
    online,
    signedOut,
    dismiss: (action) => {
      if (action.seq !== undefined) void removeAction(action.seq);
    },
  };
}
