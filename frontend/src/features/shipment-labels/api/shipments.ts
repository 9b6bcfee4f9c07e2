// The print page's one call: GetShipment for each id, through the staff service or the portal's
// (the session cookie travels with it).
import { Code, ConnectError } from '@connectrpc/connect';
import type { Shipment } from '@/gen/logistics/v1/shipment_pb';
import { serverMessage } from '@/lib/rpc-errors';
import type { PrintArea } from '@/config/routes';
import { customerPortalClient } from '@/lib/portal-client';
import { shipmentClient } from '@/lib/transport';

const TIMEOUT_MS = 15_000;

/** One id of the page: its shipment, or the sentence to show instead. */
export type PrintItem =
  | { id: string; shipment: Shipment; error?: undefined }
  | { id: string; shipment?: undefined; error: string };

/** The shipment with this id, or why it cannot be printed; never rejects except when aborted. */
export async function loadPrintItem(area: PrintArea, id: string, signal: AbortSignal): Promise<PrintItem> {
  const client = area === 'portal' ? customerPortalClient : shipmentClient;
  try {
    return { id, shipment: await client.getShipment({ id }, { signal, timeoutMs: TIMEOUT_MS }) };
  } catch (error) {
    if (signal.aborted) throw error;
    if (ConnectError.from(error).code === Code.NotFound) return { id, error: `Shipment not found: ${id}` };
    const reason = serverMessage(error, 'check your connection and try again.');
    return { id, error: `Could not load shipment ${id}: ${reason}` };
  }
}
