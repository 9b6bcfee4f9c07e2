// Sends the kept actions whenever the phone may be online: at start, after each new action,
// when the browser says it is back online, and every few seconds while some wait.
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MAX_ACTIONS_PER_CALL, sendActions } from '../api/courier';
import { allActions, markConflict, onOutboxChange, removeActions, type QueuedAction } from '../utils/outbox';

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

/** The next call's actions: the oldest waiting, up to the bound, ending at the first delivery
 * with a proof (its photo goes in a call of its own, after its event). */
function nextCall(waiting: QueuedAction[]): QueuedAction[] {
  const proof = waiting.findIndex((a) => a.proof !== undefined);
  return waiting.slice(0, Math.min(MAX_ACTIONS_PER_CALL, proof === -1 ? waiting.length : proof + 1));
}

/** Sends the waiting actions, oldest first, a call at a time; stops at the first the network
 * refuses (the rest wait for the next try). */
function flush(onSignedOut: () => void, onSent: () => void): Promise<void> {
  flushing ??= (async () => {
    let sent = false;
    try {
      const tried = new Set<number>();
      // Read again after each call: actions kept meanwhile are sent too.
      for (;;) {
        const waiting = (await allActions()).filter((a) => a.conflict === undefined && a.seq !== undefined && !tried.has(a.seq));
        if (waiting.length === 0) return;
        const actions = nextCall(waiting);
        for (const action of actions) tried.add(action.seq as number);
        const results = await sendActions(actions);
        const done = actions.filter((_, i) => results[i].kind === 'sent').map((a) => a.seq as number);
        await removeActions(done);
        sent ||= done.length > 0;
        for (const [i, result] of results.entries()) {
          if (result.kind === 'refused') await markConflict(actions[i], result.message);
        }
        const stop = results.find((r) => r.kind === 'retry' || r.kind === 'signed-out');
        if (stop) {
          if (stop.kind === 'signed-out') onSignedOut();
          return;
        }
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
    // A change: show it, and send a new action now (it waits behind any older one).
    const unsubscribe = onOutboxChange(() => {
      read();
      send();
    });
    return () => {
      live = false;
      window.removeEventListener('online', read);
      window.removeEventListener('offline', read);
      unsubscribe();
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
      if (action.seq !== undefined) void removeActions([action.seq]);
    },
  };
}
