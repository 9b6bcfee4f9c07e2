import { describe, expect, it } from 'vitest';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import { cityKey, shipmentProgress } from './progress';

const { PENDING, IN_TRANSIT, DELIVERED, DELAYED, ON_HOLD } = ShipmentStatus;

type Entry = [status: ShipmentStatus, location: string, localDate?: string];

function shipment(status: ShipmentStatus, currentLocation: string, entries: Entry[], destination = 'Rotterdam, Netherlands') {
  return {
    status,
    destination,
    currentLocation,
    history: entries.map(([s, location, localDate = '2026-11-01'], index) => ({
      status: s,
      location,
      localDate,
      time: timestampFromMs(1_000_000 + index * 1000),
    })),
  };
}

function states(steps: ReturnType<typeof shipmentProgress>) {
  return steps.map((s) => `${s.name}:${s.state}`);
}

function current(steps: ReturnType<typeof shipmentProgress>) {
  return steps.filter((s) => s.state === 'current').map((s) => s.name);
}

describe('cityKey', () => {
  it('compares the first part, without case or accents', () => {
    expect(cityKey('São Paulo, Brazil')).toBe('sao paulo');
    expect(cityKey('  MÜNCHEN , Germany')).toBe('munchen');
    expect(cityKey('Zürich')).toBe(cityKey('zurich, CH'));
    expect(cityKey('')).toBe('');
  });
});

describe('shipmentProgress', () => {
  it('a new shipment is at Created, every later step upcoming', () => {
    const steps = shipmentProgress(shipment(PENDING, 'Lagos, Nigeria', [[PENDING, 'Lagos, Nigeria']]));
    expect(states(steps)).toEqual([
      'Created:current',
      'Picked up:upcoming',
      'In transit:upcoming',
      'Out for delivery:upcoming',
      'Delivered:upcoming',
    ]);
    expect(steps.every((s) => s.markers.length === 0)).toBe(true);
  });

  it('in transit on the way: Created and Picked up done, In transit current', () => {
    const steps = shipmentProgress(
      shipment(IN_TRANSIT, 'Accra, Ghana', [
        [PENDING, 'Lagos, Nigeria'],
        [IN_TRANSIT, 'Accra, Ghana'],
      ]),
    );
    expect(states(steps)).toEqual([
      'Created:done',
      'Picked up:done',
      'In transit:current',
      'Out for delivery:upcoming',
      'Delivered:upcoming',
    ]);
  });

  it('a status other than pending means picked up even without history', () => {
    expect(current(shipmentProgress(shipment(ON_HOLD, 'Lagos, Nigeria', [])))).toEqual(['Picked up']);
    expect(current(shipmentProgress(shipment(PENDING, 'Lagos, Nigeria', [])))).toEqual(['Created']);
  });

  it('a shipment set back to pending keeps the steps it reached', () => {
    const steps = shipmentProgress(
      shipment(PENDING, 'Lagos, Nigeria', [
        [PENDING, 'Lagos, Nigeria'],
        [IN_TRANSIT, 'Lagos, Nigeria'],
        [PENDING, 'Lagos, Nigeria'],
      ]),
    );
    expect(current(steps)).toEqual(['In transit']);
  });

  it('out for delivery in the destination city, whatever the case, accents or country part', () => {
    const steps = shipmentProgress(
      shipment(
        IN_TRANSIT,
        'sao paulo',
        [
          [PENDING, 'Lagos, Nigeria'],
          [IN_TRANSIT, 'SÃO PAULO, Brasil'],
        ],
        'São Paulo, Brazil',
      ),
    );
    expect(current(steps)).toEqual(['Out for delivery']);
    expect(steps.slice(0, 3).every((s) => s.state === 'done')).toBe(true);
  });

  it('delayed or on hold in the destination city is out for delivery too', () => {
    expect(current(shipmentProgress(shipment(DELAYED, 'Rotterdam', [[PENDING, 'Lagos'], [DELAYED, 'Rotterdam']])))).toEqual([
      'Out for delivery',
    ]);
    expect(current(shipmentProgress(shipment(ON_HOLD, 'Rotterdam, NL', [])))).toEqual(['Out for delivery']);
  });

  it('a pending shipment at the destination is not out for delivery', () => {
    expect(current(shipmentProgress(shipment(PENDING, 'Rotterdam', [[PENDING, 'Rotterdam']])))).toEqual(['Created']);
  });

  it('delivered: every step done up to Delivered, which is current', () => {
    const steps = shipmentProgress(
      shipment(DELIVERED, 'Rotterdam, Netherlands', [
        [PENDING, 'Lagos, Nigeria'],
        [IN_TRANSIT, 'Accra, Ghana'],
        [DELIVERED, 'Rotterdam, Netherlands'],
      ]),
    );
    expect(states(steps)).toEqual([
      'Created:done',
      'Picked up:done',
      'In transit:done',
      'Out for delivery:done',
      'Delivered:current',
    ]);
  });

  it('straight from pending to delivered is delivered', () => {
    const steps = shipmentProgress(shipment(DELIVERED, 'Rotterdam', [[PENDING, 'Lagos'], [DELIVERED, 'Rotterdam']]));
    expect(current(steps)).toEqual(['Delivered']);
  });

  it('only a delivered status is delivered', () => {
    const steps = shipmentProgress(
      shipment(IN_TRANSIT, 'Accra', [
        [PENDING, 'Lagos'],
        [DELIVERED, 'Rotterdam'],
        [IN_TRANSIT, 'Accra'],
      ]),
    );
    expect(current(steps)).toEqual(['Out for delivery']);
    expect(steps[4].state).toBe('upcoming');
  });

  it('puts each delay or hold on the step reached when it happened', () => {
    const steps = shipmentProgress(
      shipment(IN_TRANSIT, 'Rotterdam, Netherlands', [
        [PENDING, 'Lagos, Nigeria', '2026-11-01'],
        [ON_HOLD, 'Lagos, Nigeria', '2026-11-02'],
        [IN_TRANSIT, 'Accra, Ghana', '2026-11-03'],
        [DELAYED, 'Accra, Ghana', '2026-11-04'],
        [DELAYED, 'Accra, Ghana', '2026-11-05'],
        [IN_TRANSIT, 'Rotterdam, Netherlands', '2026-11-06'],
      ]),
    );
    expect(steps.map((s) => s.markers)).toEqual([
      [],
      [{ status: 'on_hold', localDate: '2026-11-02', past: true }],
      // The latest of two delays on one step.
      [{ status: 'delayed', localDate: '2026-11-05', past: true }],
      [],
      [],
    ]);
    expect(current(steps)).toEqual(['Out for delivery']);
  });

  it('follows the timestamps, not the stored order', () => {
    const input = shipment(IN_TRANSIT, 'Accra', [
      [PENDING, 'Lagos'],
      [DELAYED, 'Lagos', '2026-11-02'],
    ]);
    // The delay happened first, before pickup was recorded: still the step it reached then.
    input.history[1].time = timestampFromMs(1);
    const steps = shipmentProgress(input);
    expect(steps[1].markers).toEqual([{ status: 'delayed', localDate: '2026-11-02', past: true }]);
  });

  it('shows only the present delay or hold as present: one the shipment moved on from is past', () => {
    const delayedNow = shipmentProgress(
      shipment(DELAYED, 'Accra, Ghana', [
        [PENDING, 'Lagos, Nigeria', '2026-11-01'],
        [ON_HOLD, 'Lagos, Nigeria', '2026-11-02'],
        [IN_TRANSIT, 'Accra, Ghana', '2026-11-03'],
        [DELAYED, 'Accra, Ghana', '2026-11-23'],
      ]),
    );
    expect(delayedNow[1].markers).toEqual([{ status: 'on_hold', localDate: '2026-11-02', past: true }]);
    expect(delayedNow[2].markers).toEqual([{ status: 'delayed', localDate: '2026-11-23', past: false }]);
    // Moving again on the same step: the delay is over.
    const movingAgain = shipmentProgress(
      shipment(IN_TRANSIT, 'Tema, Ghana', [
        [PENDING, 'Lagos, Nigeria', '2026-11-01'],
        [IN_TRANSIT, 'Accra, Ghana', '2026-11-03'],
        [DELAYED, 'Accra, Ghana', '2026-11-23'],
        [IN_TRANSIT, 'Tema, Ghana', '2026-11-24'],
      ]),
    );
    expect(current(movingAgain)).toEqual(['In transit']);
    expect(movingAgain[2].markers).toEqual([{ status: 'delayed', localDate: '2026-11-23', past: true }]);
  });
});
