// Which cached queries a change of shipments makes stale, by the generated service descriptors
// (Connect Query keys every query by its service and method: ["connect-query", {serviceName,
// methodName, input, ...}]), so this feature names no other feature's code.
import type { DescMethod } from '@bufbuild/protobuf';
import { AuditService } from '@/gen/logistics/v1/audit_service_pb';
import { ShipmentExceptionService } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { ShipmentNoteService } from '@/gen/logistics/v1/shipment_note_service_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';

/** What changed since the last round: these shipments, or everything. */
export type Change = { ids: ReadonlySet<string>; everything: boolean };

/** The change so far with one more message of the feed added. The first message of a
 * (re)connection, empty, says that anything read before it may be stale. */
export function addMessage(
  change: Change | null,
  message: { shipmentIds: readonly string[]; everythingChanged: boolean },
  first: boolean,
): Change | null {
  const everything = (change?.everything ?? false) || message.everythingChanged || first;
  if (!everything && message.shipmentIds.length === 0) return change;
  return { ids: new Set([...(change?.ids ?? []), ...message.shipmentIds]), everything };
}

const id = (method: DescMethod) => `${method.parent.typeName}/${method.name}`;

/** Read again after any change: figures that may count any shipment, and the exceptions queue,
 * which adds a newcomer at its end (longest-standing first). */
const ANY_CHANGE = new Set(
  [
    ShipmentService.method.getShipmentStatistics,
    ShipmentExceptionService.method.listShipmentExceptions,
    ShipmentExceptionService.method.getShipmentExceptionCounts,
  ].map(id),
);

/** Read again when their shipment changed: the request field that names it. */
const ONE_SHIPMENT = new Map(
  [
    [ShipmentService.method.getShipment, 'id'],
    [ShipmentNoteService.method.listShipmentNotes, 'shipmentId'],
    // A shipment's Activity tab (the audit entries about it).
    [AuditService.method.listAuditEntries, 'target'],
  ].map(([method, field]) => [id(method as DescMethod), field as string]),
);

/** Read again when a shipment it shows changed: the shipments list, newest first, where a
 * newcomer on top would move every row under the user's pointer; it shows new ones when next read. */
const SHOWN_SHIPMENTS = id(ShipmentService.method.listShipments);

/** The ids of the shipments a cached list answer shows. */
function shownIds(data: unknown): string[] {
  const shipments = typeof data === 'object' && data !== null ? (data as { shipments?: unknown }).shipments : undefined;
  if (!Array.isArray(shipments)) return [];
  return shipments.map((shipment: { id?: unknown }) => (typeof shipment?.id === 'string' ? shipment.id : '')).filter(Boolean);
}

/** Whether the query with this key (and this cached answer) shows something `change` made stale. */
export function isStale(queryKey: readonly unknown[], change: Change, data?: unknown): boolean {
  const [root, props] = queryKey;
  if (root !== 'connect-query' || typeof props !== 'object' || props === null) return false;
  const { serviceName, methodName, input } = props as { serviceName?: string; methodName?: string; input?: unknown };
  const method = `${serviceName}/${methodName}`;
  if (ANY_CHANGE.has(method)) return true;
  if (method === SHOWN_SHIPMENTS) return change.everything || shownIds(data).some((shown) => change.ids.has(shown));
  const field = ONE_SHIPMENT.get(method);
  if (field === undefined) return false;
  const shipment = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof shipment !== 'string' || shipment === '') return false;
  return change.everything || change.ids.has(shipment);
}

/** Runs `run` at most once per `intervalMs`: at once when the last run is that long ago, else
 * once at the end of the interval, however many times it was asked meanwhile. */
export function throttle(run: () => void, intervalMs: number): { schedule: () => void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    run();
  };
  return {
    schedule: () => {
      if (timer !== undefined) return;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel: () => clearTimeout(timer),
  };
}
