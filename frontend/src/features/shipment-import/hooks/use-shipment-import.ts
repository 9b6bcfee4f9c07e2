import { useEffect, useRef, useState } from 'react';
import { Code, ConnectError } from '@connectrpc/connect';
import { ShipmentImportState, type ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { getShipmentImport } from '../api/imports';
import { isFinished } from '../utils/import-text';

/** How often a running import is asked for its progress. */
const POLL_MS = 1_000;
/** How long to wait after a failed call before asking again. */
const RETRY_MS = 3_000;
const LOAD_FAILED = 'Failed to load the import';

type Loaded = { imp: ShipmentImport | null; error: string | null; missing: boolean };

/**
 * One import, asked again every second while it runs; stops when it has finished, when the
 * import is not found, or on unmount (the call under way is aborted). `onFinished` is called
 * when an import seen running has finished. Mount it afresh (a React key) for another id.
 */
export function useShipmentImport(id: string, initial: ShipmentImport | undefined, onFinished: (imp: ShipmentImport) => void) {
  const [loaded, setLoaded] = useState<Loaded>({ imp: initial ?? null, error: null, missing: false });
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });
  const seenRunning = useRef(initial?.state === ShipmentImportState.RUNNING);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      getShipmentImport(id, controller.signal).then(
        (imp) => {
          if (controller.signal.aborted) return;
          setLoaded({ imp, error: null, missing: false });
          if (imp.state === ShipmentImportState.RUNNING) {
            seenRunning.current = true;
            timer = setTimeout(poll, POLL_MS);
          } else if (isFinished(imp.state) && seenRunning.current) {
            seenRunning.current = false;
            finished.current(imp);
          }
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          if (ConnectError.from(error).code === Code.NotFound) {
            setLoaded({ imp: null, error: null, missing: true });
            return;
          }
          // Keep what was shown and try again (a network blip while it runs).
          setLoaded((shown) => ({ ...shown, error: serverMessage(error, LOAD_FAILED) }));
          timer = setTimeout(poll, RETRY_MS);
        },
      );
    };
    poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id]);

  return loaded;
}
