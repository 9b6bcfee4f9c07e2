import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { create, toJsonString } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  PaymentMode,
  ShipmentMode,
  ShipmentSchema,
  ShipmentStatus,
  ShipmentView,
  type Shipment,
} from '@/gen/logistics/v1/shipment_pb';
import { cityLevel, firstNameAndInitial, limitedProjection, loadLastResult, saveLastResult } from './last-result';

const SECRETS = [
  '12 Marina Road',
  '+234 801 234 5678',
  'maria@example.com',
  '4 Dam Square',
  '+31 20 555 0101',
  'jan@example.nl',
  'Garcia',
  'Jansen',
  'Fragile glassware',
  'Bank',
  '125000',
  'Call before delivery',
  'agent.smith',
];

function fullShipment(): Shipment {
  return create(ShipmentSchema, {
    id: 'doc-1',
    trackingNumber: 'PSE123456789',
    status: ShipmentStatus.IN_TRANSIT,
    shipper: { name: 'Maria Garcia', address: '12 Marina Road', phone: '+234 801 234 5678', email: 'maria@example.com' },
    receiver: { name: 'Jan Jansen', address: '4 Dam Square', phone: '+31 20 555 0101', email: 'jan@example.nl' },
    origin: 'Lagos, Nigeria',
    destination: 'Rotterdam, Netherlands',
    carrier: 'DHL',
    mode: ShipmentMode.SEA_SHIPPING,
    packageCount: 2,
    product: 'Fragile glassware',
    paymentMode: PaymentMode.BANK_TRANSFER,
    totalFreightCents: 125000n,
    weightKg: 42.5,
    totalActualWeightKg: 40,
    expectedDeliveryDate: { year: 2026, month: 12, day: 1 },
    pickupDate: { year: 2026, month: 11, day: 20 },
    packages: [{ quantity: 2, pieceType: 'Crate', description: 'Fragile glassware', weightKg: 20 }],
    comments: 'Call before delivery',
    currentLocation: 'Terminal 2, Accra, Ghana',
    history: [
      {
        time: timestampFromMs(1_000),
        localDate: '2026-11-20',
        localTime: '09:00:00',
        location: 'Apapa Wharf, Lagos, Nigeria',
        status: ShipmentStatus.PENDING,
        updatedBy: 'agent.smith',
        remarks: 'Shipment created',
        remarksPublic: true,
      },
      {
        time: timestampFromMs(2_000),
        localDate: '2026-11-21',
        localTime: '10:00:00',
        location: 'Accra, Ghana',
        status: ShipmentStatus.IN_TRANSIT,
        remarks: 'Gate code 4821, call +233 30 555 0161',
      },
    ],
    view: ShipmentView.FULL,
  });
}

describe('firstNameAndInitial', () => {
  it('keeps the first name and the initial of the second, as the server does', () => {
    expect(firstNameAndInitial('Maria Garcia')).toBe('Maria G.');
    expect(firstNameAndInitial('  ana  óliva  de la Cruz ')).toBe('ana Ó.');
    expect(firstNameAndInitial('maria garcia')).toBe('maria G.');
    expect(firstNameAndInitial('Maria G.')).toBe('Maria G.');
    expect(firstNameAndInitial('Cher')).toBe('Cher');
    expect(firstNameAndInitial('')).toBe('');
  });
});

describe('cityLevel', () => {
  it('keeps the last two parts of a place', () => {
    expect(cityLevel('12 Dock Road, Rotterdam, Netherlands')).toBe('Rotterdam, Netherlands');
    expect(cityLevel(' Lagos ,  Nigeria ')).toBe('Lagos, Nigeria');
    expect(cityLevel('Atlantic Ocean')).toBe('Atlantic Ocean');
    expect(cityLevel('Hub 4, , Madrid, Spain,')).toBe('Madrid, Spain');
    expect(cityLevel('')).toBe('');
  });
});

describe('limitedProjection', () => {
  it('keeps what the public view shows and nothing else', () => {
    const limited = limitedProjection(fullShipment());
    expect(limited.view).toBe(ShipmentView.LIMITED);
    expect(limited.verificationAvailable).toBe(false);
    expect(limited.shipper).toMatchObject({ name: 'Maria G.', address: '', phone: '', email: '' });
    expect(limited.receiver).toMatchObject({ name: 'Jan J.', address: '', phone: '', email: '' });
    expect(limited.packages).toEqual([]);
    expect(limited.product).toBe('');
    expect(limited.paymentMode).toBe(PaymentMode.UNSPECIFIED);
    expect(limited.totalFreightCents).toBe(0n);
    expect(limited.comments).toBe('');
    expect(limited.pickupDate).toBeUndefined();
    expect(limited.id).toBe('');
    expect(limited).toMatchObject({
      trackingNumber: 'PSE123456789',
      status: ShipmentStatus.IN_TRANSIT,
      origin: 'Lagos, Nigeria',
      destination: 'Rotterdam, Netherlands',
      currentLocation: 'Accra, Ghana',
      carrier: 'DHL',
      mode: ShipmentMode.SEA_SHIPPING,
      packageCount: 2,
      weightKg: 42.5,
      totalActualWeightKg: 40,
      expectedDeliveryDate: { year: 2026, month: 12, day: 1 },
    });
    expect(limited.history).toHaveLength(2);
    // A remark staff did not mark public stays out, even from a party's full view.
    expect(limited.history[1].remarks).toBe('');
    expect(limited.history[0]).toMatchObject({
      localDate: '2026-11-20',
      localTime: '09:00:00',
      location: 'Lagos, Nigeria',
      status: ShipmentStatus.PENDING,
      remarks: 'Shipment created',
      updatedBy: '',
    });
  });
});

describe('the offline copy', () => {
  let store: Map<string, string>;
  beforeEach(() => {
    store = new Map();
    vi.stubGlobal('window', {
      localStorage: {
        getItem: (key: string) => store.get(key) ?? null,
        setItem: (key: string, value: string) => void store.set(key, value),
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('stores only the limited view of a full result', () => {
    saveLastResult(fullShipment());
    const raw = [...store.values()].join('\n');
    expect(raw).toContain('PSE123456789');
    for (const secret of SECRETS) expect(raw).not.toContain(secret);

    const saved = loadLastResult('pse123456789');
    expect(saved?.shipment.view).toBe(ShipmentView.LIMITED);
    expect(saved?.shipment.receiver?.name).toBe('Jan J.');
    expect(saved?.shipment.currentLocation).toBe('Accra, Ghana');
    expect(loadLastResult('PSE000000000')).toBeNull();
  });

  it('shows a full copy kept by an older version in the limited view', () => {
    store.set(
      'last-tracking-result',
      JSON.stringify({
        trackingNumber: 'PSE123456789',
        savedAt: '2026-11-20T10:00:00.000Z',
        shipment: toJsonString(ShipmentSchema, fullShipment()),
      }),
    );
    const saved = loadLastResult('PSE123456789');
    expect(saved?.savedAt).toBe('2026-11-20T10:00:00.000Z');
    expect(saved?.shipment.shipper?.email).toBe('');
    expect(saved?.shipment.packages).toEqual([]);
  });

  it('a broken copy is no copy', () => {
    store.set('last-tracking-result', '{not json');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(loadLastResult('PSE123456789')).toBeNull();
  });
});
