import { createConnectQueryKey } from '@connectrpc/connect-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuditService } from '@/gen/logistics/v1/audit_service_pb';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import { ShipmentExceptionService } from '@/gen/logistics/v1/shipment_exception_service_pb';
import { ShipmentNoteService } from '@/gen/logistics/v1/shipment_note_service_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { addMessage, isStale, throttle, type Change } from './stale-queries';

const some = (...ids: string[]): Change => ({ ids: new Set(ids), everything: false });
const everything: Change = { ids: new Set(), everything: true };

// The keys as the features' hooks make them (connect-query's own function, as useQuery does).
const keys = {
  list: createConnectQueryKey({ schema: ShipmentService.method.listShipments, input: { pageSize: 20, query: 'x' }, cardinality: 'finite' }),
  statistics: createConnectQueryKey({ schema: ShipmentService.method.getShipmentStatistics, input: {}, cardinality: 'finite' }),
  exceptions: createConnectQueryKey({
    schema: ShipmentExceptionService.method.listShipmentExceptions,
    input: { pageSize: 50 },
    pageParamKey: 'pageToken',
    cardinality: 'infinite',
  }),
  counts: createConnectQueryKey({ schema: ShipmentExceptionService.method.getShipmentExceptionCounts, input: {}, cardinality: 'finite' }),
  shipmentA: createConnectQueryKey({ schema: ShipmentService.method.getShipment, input: { id: 'a' }, cardinality: 'finite' }),
  notesA: createConnectQueryKey({
    schema: ShipmentNoteService.method.listShipmentNotes,
    input: { shipmentId: 'a', pageSize: 20 },
    pageParamKey: 'pageToken',
    cardinality: 'infinite',
  }),
  activityA: createConnectQueryKey({ schema: AuditService.method.listAuditEntries, input: { target: 'a', pageSize: 100 }, cardinality: 'finite' }),
  auditLog: createConnectQueryKey({ schema: AuditService.method.listAuditEntries, input: { pageSize: 50 }, cardinality: 'finite' }),
  users: createConnectQueryKey({ schema: AuthService.method.listUsers, input: { pageSize: 100 }, cardinality: 'finite' }),
};

describe('isStale', () => {
  it('reads the figures and the exceptions again after any change', () => {
    for (const key of [keys.statistics, keys.exceptions, keys.counts]) expect(isStale(key, some('b'))).toBe(true);
  });

  it('reads the shipments list again when a shipment it shows changed, so its rows never move under the pointer', () => {
    const shown = { shipments: [{ id: 'a' }, { id: 'c' }], nextPageToken: '' };
    expect(isStale(keys.list, some('c'), shown)).toBe(true);
    expect(isStale(keys.list, some('b'), shown)).toBe(false);
    expect(isStale(keys.list, everything, shown)).toBe(true);
    expect(isStale(keys.list, some('b'), undefined)).toBe(false);
  });

  it("reads a shipment, its notes and its activity again when it changed, not another's", () => {
    for (const key of [keys.shipmentA, keys.notesA, keys.activityA]) {
      expect(isStale(key, some('a', 'c'))).toBe(true);
      expect(isStale(key, some('b'))).toBe(false);
      expect(isStale(key, everything)).toBe(true);
    }
  });

  it('leaves what shows no shipment alone', () => {
    for (const key of [keys.auditLog, keys.users]) expect(isStale(key, everything)).toBe(false);
    expect(isStale(['track', 'PSE123456789', ''], everything)).toBe(false);
  });
});

describe('addMessage', () => {
  it('gathers the ids of several messages', () => {
    const once = addMessage(null, { shipmentIds: ['a'], everythingChanged: false }, false);
    const twice = addMessage(once, { shipmentIds: ['b', 'a'], everythingChanged: false }, false);
    expect(twice).toEqual(some('a', 'b'));
  });

  it('takes the first message of a connection, or everything_changed, as everything', () => {
    expect(addMessage(null, { shipmentIds: [], everythingChanged: false }, true)?.everything).toBe(true);
    expect(addMessage(some('a'), { shipmentIds: [], everythingChanged: true }, false)?.everything).toBe(true);
  });

  it('ignores a later empty message (it only keeps the connection open)', () => {
    expect(addMessage(null, { shipmentIds: [], everythingChanged: false }, false)).toBeNull();
    const change = some('a');
    expect(addMessage(change, { shipmentIds: [], everythingChanged: false }, false)).toBe(change);
  });
});

describe('throttle', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at once, then at most once per interval', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const rounds = throttle(run, 300);
    rounds.schedule();
    expect(run).toHaveBeenCalledTimes(1);
    rounds.schedule();
    rounds.schedule();
    vi.advanceTimersByTime(299);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    rounds.schedule();
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('runs nothing after cancel', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const rounds = throttle(run, 300);
    rounds.schedule();
    rounds.schedule();
    rounds.cancel();
    vi.advanceTimersByTime(1_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
