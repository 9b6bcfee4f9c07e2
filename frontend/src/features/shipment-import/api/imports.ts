// The import's calls (permission shipments.import; the session cookie travels with them).
import { useCallback } from 'react';
import { createConnectQueryKey } from '@connectrpc/connect-query';
import { useQueryClient } from '@tanstack/react-query';
import { ShipmentService, type ShipmentImport } from '@/gen/logistics/v1/shipment_service_pb';
import { shipmentClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;
/** One part of up to 1 MiB on a slow line. */
const PART_TIMEOUT_MS = 120_000;
/** Checking every row of a file of up to 100 MB. */
const CHECK_TIMEOUT_MS = 300_000;

/** How many imports the Recent imports list shows. */
export const RECENT_IMPORTS = 10;

export function createShipmentImport(fileName: string, sizeBytes: number, signal?: AbortSignal): Promise<ShipmentImport> {
  return shipmentClient.createShipmentImport(
    { fileName, sizeBytes: BigInt(sizeBytes) },
    { signal, timeoutMs: TIMEOUT_MS },
  );
}

export function appendShipmentImportData(
  importId: string,
  offset: number,
  data: Uint8Array,
  signal?: AbortSignal,
): Promise<ShipmentImport> {
  return shipmentClient.appendShipmentImportData(
    { importId, offset: BigInt(offset), data },
    { signal, timeoutMs: PART_TIMEOUT_MS },
  );
}

/** Checks every row and answers with the counts and the preview; nothing is written. */
export function checkShipmentImport(importId: string, signal?: AbortSignal): Promise<ShipmentImport> {
  return shipmentClient.startShipmentImport({ importId, validateOnly: true }, { signal, timeoutMs: CHECK_TIMEOUT_MS });
}

/** Starts creating the valid rows' shipments; answers at once (state RUNNING). */
export function runShipmentImport(importId: string): Promise<ShipmentImport> {
  return shipmentClient.startShipmentImport({ importId, validateOnly: false }, { timeoutMs: TIMEOUT_MS });
}

/** After an import was checked, started or has finished: the imports and the shipments (which
 * an import creates) load again wherever they are shown. */
export function useImportsChanged(): () => void {
  const queryClient = useQueryClient();
  return useCallback(
    () => void queryClient.invalidateQueries({ queryKey: createConnectQueryKey({ schema: ShipmentService, cardinality: undefined }) }),
    [queryClient],
  );
}
