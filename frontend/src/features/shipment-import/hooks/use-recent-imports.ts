import { useEffect, useState } from 'react';
import { ShipmentImportState, type ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { listShipmentImports } from '../api/imports';

/** How often the list is asked again while one of its imports runs. */
const POLL_MS = 2_000;
const LOAD_FAILED = 'Failed to load the recent imports';

type Recent = { imports: ShipmentImport[]; loading: boolean; error: string | null };

/**
 * The newest imports, loaded again whenever `reloadKey` changes (an import was checked,
 * started or has finished) and every 2 s while any of them runs; the call under way is
 * aborted on unmount.
 */
export function useRecentImports(reloadKey: number) {
  const [recent, setRecent] = useState<Recent>({ imports: [], loading: true, error: null });

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      listShipmentImports(controller.signal).then(
        (response) => {
          if (controller.signal.aborted) return;
          setRecent({ imports: response.imports, loading: false, error: null });
          if (response.imports.some((imp) => imp.state === ShipmentImportState.RUNNING)) {
            timer = setTimeout(load, POLL_MS);
          }
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setRecent((shown) => ({ ...shown, loading: false, error: serverMessage(error, LOAD_FAILED) }));
        },
      );
    };
    load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [reloadKey]);

  return recent;
}
