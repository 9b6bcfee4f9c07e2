import { useEffect, useRef } from 'react';
import { Code } from '@connectrpc/connect';
import { useQuery } from '@connectrpc/connect-query';
import { ShipmentImportState, ShipmentService, type ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { isFinished } from '../utils/import-text';

/** How often a running import is asked for its progress. */
const POLL_MS = 1_000;
/** How long to wait after a failed call before asking again. */
const RETRY_MS = 3_000;
const LOAD_FAILED = 'Failed to load the import';

/**
 * One import, asked again every second while it runs; stops when it has finished, when the
 * import is not found, or on unmount (the call under way is aborted). A failed call is tried
 * again every 3 s (a network blip while it runs), what was shown staying. `onFinished` is
 * called when an import seen running has finished.
 */
export function useShipmentImport(id: string, initial: ShipmentImport | undefined, onFinished: (imp: ShipmentImport) => void) {
  const query = useQuery(
    ShipmentService.method.getShipmentImport,
    { importId: id },
    {
      placeholderData: initial,
      refetchInterval: ({ state }) => (state.data?.state === ShipmentImportState.RUNNING ? POLL_MS : false),
      retry: (_, error) => error.code !== Code.NotFound,
      retryDelay: RETRY_MS,
    },
  );
  const imp = query.data ?? null;
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });
  const seenRunning = useRef(initial?.state === ShipmentImportState.RUNNING);
  useEffect(() => {
    if (!imp || query.isPlaceholderData) return;
    if (imp.state === ShipmentImportState.RUNNING) {
      seenRunning.current = true;
    } else if (isFinished(imp.state) && seenRunning.current) {
      seenRunning.current = false;
      finished.current(imp);
    }
  }, [imp, query.isPlaceholderData]);

  const failure = query.failureReason;
  const missing = failure?.code === Code.NotFound;
  return {
    imp: missing ? null : imp,
    error: failure && !missing ? serverMessage(failure, LOAD_FAILED) : null,
    missing,
  };
}
