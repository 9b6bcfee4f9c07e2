// The courier's actions, kept on the phone (IndexedDB) until the server has them: each with an
// id made here, so sending one again never applies it twice, and sent in the order recorded.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** What a courier records from a scanned shipment. */
export type CourierEvent = 'picked_up' | 'at_hub' | 'out_for_delivery' | 'delivered' | 'attempted';
export type AttemptReason = 'nobody_home' | 'refused' | 'address_problem';

type ProofInput = { recipientName: string; signature?: Blob; photo?: Blob };

export type QueuedAction = {
  /** The order of sending (IndexedDB's key). */
  seq?: number;
  /** Made on the phone; the server applies an event with this id once. */
  requestId: string;
  trackingNumber: string;
  /** Empty when the label was scanned offline and the shipment is not on the round: the number
   * is looked up before sending. */
  shipmentId: string;
  event: CourierEvent;
  reason?: AttemptReason;
  place: string;
  /** When the courier recorded it (ISO 8601): the history entry's time. */
  recordedAt: string;
  proof?: ProofInput;
  /** The server refused it (someone else changed the shipment meanwhile, say): shown to the
   * courier until dismissed, never sent again. */
  conflict?: string;
};

interface OutboxSchema extends DBSchema {
  actions: { key: number; value: QueuedAction };
}

const DATABASE = 'courier-outbox';
let database: Promise<IDBPDatabase<OutboxSchema>> | null = null;

function db(): Promise<IDBPDatabase<OutboxSchema>> {
  database ??= openDB<OutboxSchema>(DATABASE, 1, {
    upgrade(store) {
      store.createObjectStore('actions', { keyPath: 'seq', autoIncrement: true });
    },
  });
  return database;
}

const listeners = new Set<() => void>();

/** Calls `listener` after every change to the outbox; returns the unsubscribe. */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  for (const listener of listeners) listener();
}

/** Keeps an action for sending; resolves once it is stored on the phone. */
export async function enqueue(action: Omit<QueuedAction, 'seq'>): Promise<void> {
  await (await db()).add('actions', action as QueuedAction);
  changed();
}

/** Every kept action, oldest first. */
export async function allActions(): Promise<QueuedAction[]> {
  return (await db()).getAll('actions');
}

/** Removes the sent actions in one transaction: one change, not one per action. */
export async function removeActions(seqs: number[]): Promise<void> {
  if (seqs.length === 0) return;
  const tx = (await db()).transaction('actions', 'readwrite');
  await Promise.all([...seqs.map((seq) => tx.store.delete(seq)), tx.done]);
  changed();
}

export async function markConflict(action: QueuedAction, message: string): Promise<void> {
  await (await db()).put('actions', { ...action, conflict: message });
  changed();
}

/** A new id for an action: random, so two phones never make the same. */
export function newRequestId(): string {
  return crypto.randomUUID();
}
