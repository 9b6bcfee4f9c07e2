// Following a server-streaming call for as long as a page is open: the one place that decides
// when a watch (WatchShipment, WatchShipmentChanges) is opened again after it ends or fails, and
// when it gives up. The decisions are pure functions (tested in watch-stream.test.ts).
import { Code, ConnectError } from '@connectrpc/connect';

/** The first wait before opening the stream again, doubled after each failure in a row. */
export const FIRST_BACKOFF_MS = 1_000;
/** The longest wait, and the wait after RESOURCE_EXHAUSTED (too many watchers: come back later). */
export const MAX_BACKOFF_MS = 30_000;
/** The server sends at least a keep-alive every 25 s: a stream silent for this long is dead (a
 * network that dropped without telling the browser) and is opened again. */
const IDLE_TIMEOUT_MS = 65_000;
/** A tab out of sight this long lets its stream go, and opens it again (caught up by its first
 * message) when shown: over HTTP/1.1 a browser opens six connections to a host, and each tab's
 * stream holds one, so a seventh tab would load nothing. */
export const HIDDEN_GRACE_MS = 10_000;

/** After the stream ended or failed: open it again after the usual backoff (`retry`), after the
 * longest one (`cap`), or give up and report (`stop`). */
export type Decision = 'retry' | 'cap' | 'stop';

/** Codes that mean "the way to the server, or the server, was down for a moment". */
const TRANSIENT = new Set<Code>([Code.Unavailable, Code.Unknown, Code.DeadlineExceeded, Code.Internal]);

/** What to do after the stream ended: `undefined` when it ended OK (after 30 minutes, or the
 * gateway shut down), else what it failed with. A network failure is a TypeError from fetch,
 * which ConnectError.from makes UNKNOWN. */
export function decide(error: unknown): Decision {
  if (error === undefined) return 'retry';
  const { code } = ConnectError.from(error);
  if (code === Code.ResourceExhausted) return 'cap';
  return TRANSIENT.has(code) ? 'retry' : 'stop';
}

/** The wait before attempt `failures` + 1 (0 after a message arrived): 1 s, 2 s, 4 s … up to
 * 30 s, each between 75% and 100% of that so that pages dropped together do not come back
 * together; `cap` waits the longest. `random` is Math.random in the app. */
export function backoffMs(failures: number, decision: 'retry' | 'cap', random: () => number = Math.random): number {
  const base = decision === 'cap' ? MAX_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures));
  return Math.round(base * (0.75 + 0.25 * random()));
}

export type WatchOptions<T> = {
  /** Opens the stream once; the signal ends this attempt (pass it and `timeoutMs: 0` to the call). */
  open: (signal: AbortSignal) => AsyncIterable<T>;
  /** Each message; `first` is the first one of this (re)connection. */
  onMessage: (message: T, first: boolean) => void;
  /** The stream was refused for good (NOT_FOUND, PERMISSION_DENIED, …): it is not opened again. */
  onStop?: (error: ConnectError) => void;
  /** Ends the watch. */
  signal: AbortSignal;
  /** For tests: the wait before opening again and the idle limit. */
  backoff?: (failures: number, decision: 'retry' | 'cap') => number;
  idleTimeoutMs?: number;
  /** For tests: the page whose visibility decides whether the stream is held. */
  page?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
};

/** Why this module aborted an attempt (not the caller): the attempt is opened again at once. */
class Restart extends Error {}

/**
 * Opens the stream and keeps it open: when it ends OK or fails for a moment (UNAVAILABLE, UNKNOWN,
 * DEADLINE_EXCEEDED, INTERNAL, a network failure) it is opened again after a backoff
 * ({@link backoffMs}; RESOURCE_EXHAUSTED after the longest one); any other code stops it
 * (`onStop`). It is opened again at once when the browser comes back online, and when the tab
 * comes back into view while the stream is down; a stream silent for {@link IDLE_TIMEOUT_MS} is
 * opened again too. A tab hidden for {@link HIDDEN_GRACE_MS} closes it until it is shown again.
 * Runs until `signal` aborts.
 */
export function watchStream<T>(options: WatchOptions<T>): void {
  const { open, onMessage, onStop, signal } = options;
  const backoff = options.backoff ?? ((failures: number, decision: 'retry' | 'cap') => backoffMs(failures, decision));
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const win: Window | undefined = typeof window === 'undefined' ? undefined : window;
  const doc = options.page ?? (typeof document === 'undefined' ? undefined : document);
  const hidden = () => doc?.visibilityState === 'hidden';

  let attempt: AbortController | null = null;
  let wake: (() => void) | null = null;
  let hiding: ReturnType<typeof setTimeout> | undefined;

  const onOnline = () => {
    // Whatever was open before the network went is likely dead: open it afresh.
    if (wake) wake();
    else attempt?.abort(new Restart('back online'));
  };
  const onVisibility = () => {
    clearTimeout(hiding);
    if (hidden()) hiding = setTimeout(() => attempt?.abort(new Restart('hidden')), HIDDEN_GRACE_MS);
    else wake?.();
  };
  win?.addEventListener('online', onOnline);
  doc?.addEventListener('visibilitychange', onVisibility);
  signal.addEventListener(
    'abort',
    () => {
      clearTimeout(hiding);
      win?.removeEventListener('online', onOnline);
      doc?.removeEventListener('visibilitychange', onVisibility);
      attempt?.abort(signal.reason);
      wake?.();
    },
    { once: true },
  );

  /** Until `ms` passed (none: until shown), the browser is back online or the watch ends. */
  const wait = (ms?: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const run = async () => {
    let failures = 0;
    while (!signal.aborted) {
      if (hidden()) {
        await wait();
        continue;
      }
      const controller = new AbortController();
      attempt = controller;
      let idle: ReturnType<typeof setTimeout> | undefined;
      const resetIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(new ConnectError('no message from the server', Code.DeadlineExceeded)), idleTimeoutMs);
      };
      let failure: unknown = undefined;
      let first = true;
      try {
        resetIdle();
        for await (const message of open(controller.signal)) {
          resetIdle();
          failures = 0;
          const wasFirst = first;
          first = false;
          onMessage(message, wasFirst);
        }
      } catch (error) {
        // Aborted by this module: the reason says why (a dead stream, back online).
        failure = controller.signal.aborted ? controller.signal.reason : error;
      } finally {
        clearTimeout(idle);
        attempt = null;
      }
      if (signal.aborted) return;
      if (failure instanceof Restart) continue;
      const decision = decide(failure);
      if (decision === 'stop') {
        onStop?.(ConnectError.from(failure));
        return;
      }
      await wait(backoff(failures, decision));
      failures += 1;
    }
  };
  void run();
}
