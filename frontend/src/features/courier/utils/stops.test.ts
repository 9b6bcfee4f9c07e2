import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { PickupSchema } from '@/gen/logistics/v1/customer_pb';
import { PartySchema, ShipmentSchema } from '@/gen/logistics/v1/shipment_pb';
import { callLink, groupByArea, mapLink } from './stops';

describe('groupByArea', () => {
  it('puts pickups and deliveries of one area together, areas in order, pickups first', () => {
    const pickup = create(PickupSchema, { id: 'p1', area: 'Tema', customerName: 'Acme', address: '1 Harbour Road' });
    const toTema = create(ShipmentSchema, {
      id: 's1',
      destination: 'tema',
      receiver: create(PartySchema, { name: 'Ama', address: '4 Beach Road', phone: '+233 20 123 4567' }),
    });
    const toAccra = create(ShipmentSchema, { id: 's2', destination: 'Accra' });
    const areas = groupByArea([pickup], [toTema, toAccra]);
    expect(areas.map((a) => [a.name, a.stops.map((s) => s.key)])).toEqual([
      ['Accra', ['shipment-s2']],
      ['Tema', ['pickup-p1', 'shipment-s1']],
    ]);
    expect(areas[1].stops[1]).toMatchObject({ name: 'Ama', address: '4 Beach Road', phone: '+233 20 123 4567' });
  });
});

describe('links', () => {
  it('calls a number as written, and refuses what is no number', () => {
    expect(callLink('+233 20 123 4567')).toBe('tel:+233201234567');
    expect(callLink('(020) 123-4567')).toBe('tel:0201234567');
    expect(callLink('ask at the gate')).toBeNull();
  });

  it('opens the map at the address and area', () => {
    expect(mapLink('4 Beach Road', 'Tema')).toBe('https://www.google.com/maps/search/?api=1&query=4%20Beach%20Road%2C%20Tema');
  });
});
