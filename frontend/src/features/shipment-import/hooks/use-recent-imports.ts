import { useQuery } from '@connectrpc/connect-query';
import { ShipmentImportState, ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { serverMessage } from '@/lib/rpc-errors';
import { RECENT_IMPORTS } from '../api/imports';

/** How often the list is asked again while one of its imports runs. */
const POLL_MS = 2_000;
const LOAD_FAILED = 'Failed to load the recent imports';

/**
 * The newest imports, loaded again whenever imports change (one was checked, started or has
 * finished: `useImportsChanged`), on `reload`, and every 2 s while any of them runs; the call
 * under way is aborted on unmount.
 */
export function useRecentImports() {
  const query = useQuery(
    ShipmentService.method.listShipmentImports,
    { pageSize: RECENT_IMPORTS },
    {
      refetchInterval: ({ state }) =>
        !state.error && state.data?.imports.some((imp) => imp.state === ShipmentImportState.RUNNING) ? POLL_MS : false,
    },
  );
  const { refetch } = query;
  return {
    imports: query.data?.imports ?? [],
    loading: query.isPending && query.isFetching,
    error: query.error ? serverMessage(query.error, LOAD_FAILED) : null,
    reload: () => void refetch(),
  };
}
