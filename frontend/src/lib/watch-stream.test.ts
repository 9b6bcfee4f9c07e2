import { Code, ConnectError } from '@connectrpc/connect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, decide, FIRST_BACKOFF_MS, HIDDEN_GRACE_MS, MAX_BACKOFF_MS, watchStream } from './watch-stream';

describe('decide', () => {
  it('opens a stream that ended OK again', () => {
    expect(decide(undefined)).toBe('retry');
  });

  it.each([Code.Unavailable, Code.Unknown, Code.DeadlineExceeded, Code.Internal])('retries code %s', (code) => {
    expect(decide(new ConnectError('down', code))).toBe('retry');
  });

  it('retries a network failure (fetch rejects with a TypeError)', () => {
    expect(decide(new TypeError('Failed to fetch'))).toBe('retry');
  });

  it('waits the longest after too many watchers', () => {
    expect(decide(new ConnectError('too many', Code.ResourceExhausted))).toBe('cap');
  });

  it.each([Code.NotFound, Code.InvalidArgument, Code.PermissionDenied, Code.Unauthenticated, Code.FailedPrecondition])(
    'stops on code %s',
    (code) => {
      expect(decide(new ConnectError('no', code))).toBe('stop');
    },
  );
});

describe('backoffMs', () => {
  const top = () => 0.999999;
  const bottom = () => 0;

  it('doubles from 1 s up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffMs(n, 'retry', top))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('jitters each wait between 75% and 100% of it', () => {
    expect(backoffMs(0, 'retry', bottom)).toBe(750);
    expect(backoffMs(2, 'retry', bottom)).toBe(3_000);
    for (let i = 0; i < 100; i++) {
      const ms = backoffMs(3, 'retry');
      expect(ms).toBeGreaterThanOrEqual(6_000);
      expect(ms).toBeLessThanOrEqual(8_000);
    }
  });

  it('waits at the cap after RESOURCE_EXHAUSTED, whatever came before', () => {
    expect(backoffMs(0, 'cap', top)).toBe(MAX_BACKOFF_MS);
    expect(backoffMs(0, 'cap', bottom)).toBe(MAX_BACKOFF_MS * 0.75);
  });

  it('never waits less than 3/4 of the first wait', () => {
    expect(backoffMs(-1, 'retry', bottom)).toBe(FIRST_BACKOFF_MS * 0.75);
  });
});

/** A stream that yields `messages` then ends with `end` (undefined: OK). */
function stream<T>(messages: T[], end?: unknown): (signal: AbortSignal) => AsyncIterable<T> {
  return async function* () {
    for (const message of messages) yield message;
    if (end !== undefined) throw end;
  };
}

describe('watchStream', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the stream again after it ends, with waits that reset after a message', async () => {
    vi.useFakeTimers();
    const attempts = [
      stream(['a', 'b']),
      stream([], new ConnectError('down', Code.Unavailable)),
      stream([], new TypeError('Failed to fetch')),
      stream(['c'], new ConnectError('gone', Code.NotFound)),
    ];
    const waits: number[] = [];
    const seen: [string, boolean][] = [];
    const stopped: Code[] = [];
    const controller = new AbortController();
    let opened = 0;
    watchStream<string>({
      open: (signal) => attempts[opened++](signal),
      onMessage: (message, first) => seen.push([message, first]),
      onStop: (error) => stopped.push(error.code),
      signal: controller.signal,
      backoff: (failures) => {
        waits.push(failures);
        return 1_000;
      },
    });
    await vi.runAllTimersAsync();
    expect(opened).toBe(4);
    expect(seen).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
    // Failures in a row since the last message: 0 after the OK end, then 1, then 2.
    expect(waits).toEqual([0, 1, 2]);
    expect(stopped).toEqual([Code.NotFound]);
    controller.abort();
  });

  it('stops opening it once the caller aborts, and reports nothing', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    let opened = 0;
    const onStop = vi.fn();
    watchStream<string>({
      open: () => {
        opened += 1;
        return stream<string>([], new ConnectError('down', Code.Unavailable))(controller.signal);
      },
      onMessage: () => undefined,
      onStop,
      signal: controller.signal,
      backoff: () => 5_000,
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(opened).toBe(1);
    controller.abort();
    await vi.runAllTimersAsync();
    expect(opened).toBe(1);
    expect(onStop).not.toHaveBeenCalled();
  });

  it('opens a stream that stays silent too long again', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    let opened = 0;
    watchStream<string>({
      open: (signal) => {
        opened += 1;
        // Never answers, until aborted.
        return (async function* () {
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
          yield 'never';
        })();
      },
      onMessage: () => undefined,
      signal: controller.signal,
      backoff: () => 1_000,
      idleTimeoutMs: 10_000,
    });
    await vi.advanceTimersByTimeAsync(10_500);
    expect(opened).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(opened).toBe(2);
    controller.abort();
  });

  it('lets the stream go while the tab is hidden, and opens it again when shown', async () => {
    vi.useFakeTimers();
    const page = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const show = (state: DocumentVisibilityState) => {
      page.visibilityState = state;
      page.dispatchEvent(new Event('visibilitychange'));
    };
    const controller = new AbortController();
    let opened = 0;
    let open = 0;
    const seen: boolean[] = [];
    watchStream<string>({
      open: (signal) => {
        opened += 1;
        open += 1;
        return (async function* () {
          yield 'now';
          await new Promise((_, reject) =>
            signal.addEventListener('abort', () => {
              open -= 1;
              reject(signal.reason);
            }),
          );
        })();
      },
      onMessage: (_, first) => seen.push(first),
      signal: controller.signal,
      backoff: () => 1_000,
      page,
    });
    await vi.advanceTimersByTimeAsync(1);
    expect([opened, open]).toEqual([1, 1]);

    // A glance at another tab keeps it; a longer one lets it go, and nothing opens meanwhile.
    show('hidden');
    await vi.advanceTimersByTimeAsync(HIDDEN_GRACE_MS - 1_000);
    show('visible');
    show('hidden');
    await vi.advanceTimersByTimeAsync(HIDDEN_GRACE_MS - 1_000);
    expect([opened, open]).toEqual([1, 1]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(open).toBe(0);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(opened).toBe(1);

    // Shown: opened at once, its first message catching the page up.
    show('visible');
    await vi.advanceTimersByTimeAsync(1);
    expect([opened, open]).toEqual([2, 1]);
    expect(seen).toEqual([true, true]);
    controller.abort();
    await vi.advanceTimersByTimeAsync(1);
    expect(open).toBe(0);
  });

  it('opens nothing in a tab that starts hidden until it is shown', async () => {
    vi.useFakeTimers();
    const page = Object.assign(new EventTarget(), { visibilityState: 'hidden' as DocumentVisibilityState });
    const controller = new AbortController();
    let opened = 0;
    watchStream<string>({
      open: () => {
        opened += 1;
        return stream<string>([])(controller.signal);
      },
      onMessage: () => undefined,
      signal: controller.signal,
      backoff: () => 60_000,
      page,
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(opened).toBe(0);
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(1);
    expect(opened).toBe(1);
    controller.abort();
  });
});
