import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import {
  PaymentMode,
  ShipmentMode,
  ShipmentSchema,
  ShipmentStatus,
  ShipmentType,
} from '@/gen/logistics/v1/shipment_pb';
import {
  buildShipmentUpdate,
  defaultShipmentFormValues,
  formFieldForViolation,
  formValuesToNewShipment,
  shipmentToFormValues,
  type ShipmentFormValues,
} from './shipment-form';
import { parseDateInput, parseDecimal, parseInteger, parseTimeInput } from './field-kinds';

function storedShipment() {
  return create(ShipmentSchema, {
    id: 'abc123',
    trackingNumber: 'PSE123456789',
    status: ShipmentStatus.IN_TRANSIT,
    shipper: { name: 'Ann Shipper', address: '1 Main St', phone: '+1 555 0100', email: 'ann@example.com' },
    receiver: { name: 'Bob Receiver', address: '2 High St', phone: '+44 20 7946 0000', email: 'bob@example.com' },
    origin: 'New York, USA',
    destination: 'London, UK',
    carrier: 'DHL',
    type: ShipmentType.EXPRESS,
    mode: ShipmentMode.AIR_SHIPPING,
    packageCount: 2,
    product: 'Books',
    productQuantity: 10,
    paymentMode: PaymentMode.CREDIT_CARD,
    totalFreightCents: 125050n,
    weightKg: 12.5,
    expectedDeliveryDate: { year: 2026, month: 12, day: 1 },
    departureTime: { hours: 8, minutes: 30 },
    pickupDate: { year: 2026, month: 11, day: 20 },
    pickupTime: { hours: 14, minutes: 5 },
    packages: [
      { quantity: 1, pieceType: 'Box', description: 'Hardcovers', lengthCm: 50, widthCm: 40, heightCm: 30, weightKg: 7.5 },
      { quantity: 2, pieceType: 'Envelope', description: 'Papers', lengthCm: 30, widthCm: 20, heightCm: 1.5, weightKg: 0.25 },
    ],
    comments: 'Fragile',
    currentLocation: 'JFK Airport',
  });
}

function edited(change: (v: ShipmentFormValues) => void): ShipmentFormValues {
  const values = shipmentToFormValues(storedShipment());
  change(values);
  return values;
}

describe('form defaults and conversion', () => {
  it('has the spec defaults', () => {
    const d = defaultShipmentFormValues();
    expect(d.packageCount).toBe('1');
    expect(d.productQuantity).toBe('1');
    expect(d.totalFreight).toBe('0');
    expect(d.weight).toBe('0');
    expect(d.packages).toEqual([
      { quantity: '1', pieceType: '', description: '', length: '0', width: '0', height: '0', weight: '0' },
    ]);
    expect(d.shipper).toEqual({ name: '', address: '', phone: '', email: '' });
    expect(d.comments).toBe('');
  });

  it('pre-fills the edit form from a stored shipment', () => {
    const v = shipmentToFormValues(storedShipment());
    expect(v.status).toBe('in_transit');
    expect(v.type).toBe('express');
    expect(v.mode).toBe('air_shipping');
    expect(v.paymentMode).toBe('credit_card');
    expect(v.totalFreight).toBe('1250.50');
    expect(v.weight).toBe('12.5');
    expect(v.expectedDeliveryDate).toBe('2026-12-01');
    expect(v.departureTime).toBe('08:30');
    expect(v.pickupTime).toBe('14:05');
    expect(v.packages[1]).toEqual({
      quantity: '2',
      pieceType: 'Envelope',
      description: 'Papers',
      length: '30',
      width: '20',
      height: '1.5',
      weight: '0.25',
    });
    expect(v.remarks).toBe('');
  });

  it('builds the CreateShipment payload with exact cents', () => {
    const v = shipmentToFormValues(storedShipment());
    v.totalFreight = '1250.5';
    v.origin = '  New York, USA ';
    const s = formValuesToNewShipment(v);
    expect(s.totalFreightCents).toBe(125050n);
    expect(s.origin).toBe('New York, USA');
    expect(s.type).toBe(ShipmentType.EXPRESS);
    expect(s.paymentMode).toBe(PaymentMode.CREDIT_CARD);
    expect(s.expectedDeliveryDate).toEqual({ year: 2026, month: 12, day: 1 });
    expect(s.pickupTime).toEqual({ hours: 14, minutes: 5 });
    expect(s.packages).toEqual(storedShipment().packages.map(({ $typeName: _, ...p }) => p));
    expect(s.id).toBeUndefined();
    expect(s.status).toBeUndefined();
  });
});

describe('input parsing', () => {
  it('parses integers, decimals, dates and times strictly', () => {
    expect(parseInteger('12')).toBe(12);
    expect(parseInteger('1.5')).toBeNull();
    expect(parseInteger('-1')).toBeNull();
    expect(parseInteger('99999999999')).toBeNull();
    expect(parseDecimal('12.5')).toBe(12.5);
    expect(parseDecimal('.5')).toBe(0.5);
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('')).toBeNull();
    expect(parseDateInput('2026-02-03')).toEqual({ year: 2026, month: 2, day: 3 });
    expect(parseDateInput('2026-13-03')).toBeNull();
    expect(parseTimeInput('07:45')).toEqual({ hours: 7, minutes: 45 });
    expect(parseTimeInput('07:45:00')).toEqual({ hours: 7, minutes: 45 });
    expect(parseTimeInput('24:00')).toBeNull();
  });
});

describe('buildShipmentUpdate', () => {
  it('sends an empty mask when nothing changed', () => {
    const update = buildShipmentUpdate(storedShipment(), edited(() => {}));
    expect(update.paths).toEqual([]);
    expect(update.shipment).toEqual({ id: 'abc123' });
  });

  it('records a failed attempt even where nothing moved, naming the unchanged location', () => {
    const stored = storedShipment();
    const update = buildShipmentUpdate(
      stored,
      edited((v) => {
        v.failedAttempt = '1';
      }),
    );
    expect(update.paths).toEqual(['current_location']);
    expect(update.shipment).toEqual({ id: 'abc123', currentLocation: stored.currentLocation });
    expect(update.failedAttempt).toBe(1);
    const moved = buildShipmentUpdate(
      stored,
      edited((v) => {
        v.failedAttempt = '2';
        v.currentLocation = 'Depot 4';
      }),
    );
    expect(moved.paths).toEqual(['current_location']);
    expect(moved.shipment).toEqual({ id: 'abc123', currentLocation: 'Depot 4' });
  });

  it('names only the changed fields', () => {
    const update = buildShipmentUpdate(
      storedShipment(),
      edited((v) => {
        v.carrier = 'FedEx';
        v.shipper.email = 'ann@new.example.com';
        v.totalFreight = '99.99';
        v.expectedDeliveryDate = '2026-12-24';
        v.pickupTime = '09:00';
      }),
    );
    expect(update.paths).toEqual(['shipper.email', 'carrier', 'total_freight_cents', 'expected_delivery_date', 'pickup_time']);
    expect(update.shipment.carrier).toBe('FedEx');
    expect(update.shipment.totalFreightCents).toBe(9999n);
    expect(update.shipment.shipper).toEqual({
      name: 'Ann Shipper',
      address: '1 Main St',
      phone: '+1 555 0100',
      email: 'ann@new.example.com',
    });
    expect(update.shipment.receiver).toBeUndefined();
    expect(update.shipment.expectedDeliveryDate).toEqual({ year: 2026, month: 12, day: 24 });
  });

  it('clears an emptied comment and sends zero amounts: empty means empty', () => {
    const update = buildShipmentUpdate(
      storedShipment(),
      edited((v) => {
        v.comments = '  ';
        v.totalFreight = '0';
      }),
    );
    expect(update.paths).toEqual(['total_freight_cents', 'comments']);
    expect(update.shipment.comments).toBe('');
    expect(update.shipment.totalFreightCents).toBe(0n);
  });

  it('sends an emptied required text as empty, for the server to refuse at its input', () => {
    const update = buildShipmentUpdate(storedShipment(), edited((v) => (v.shipper.name = '')));
    expect(update.paths).toEqual(['shipper.name']);
    expect(update.shipment.shipper?.name).toBe('');
  });

  it('sends a new language of e-mails, and none when it stays English', () => {
    const update = buildShipmentUpdate(storedShipment(), edited((v) => (v.languageCode = 'fr')));
    expect(update.paths).toEqual(['language_code']);
    expect(update.shipment.languageCode).toBe('fr');
    expect(buildShipmentUpdate(storedShipment(), edited((v) => (v.languageCode = 'en'))).paths).toEqual([]);
  });

  it('treats the same amount written differently as unchanged', () => {
    const update = buildShipmentUpdate(storedShipment(), edited((v) => (v.totalFreight = '1250.5')));
    expect(update.paths).toEqual([]);
  });

  it('sends status and location changes with the remarks', () => {
    const update = buildShipmentUpdate(
      storedShipment(),
      edited((v) => {
        v.status = 'delayed';
        v.currentLocation = 'Heathrow, London';
        v.remarks = '  Held at customs ';
      }),
    );
    expect(update.paths).toEqual(['status', 'current_location']);
    expect(update.shipment.status).toBe(ShipmentStatus.DELAYED);
    expect(update.shipment.currentLocation).toBe('Heathrow, London');
    expect(update.remarks).toBe('Held at customs');
  });

  it('replaces the packages when a line changed', () => {
    const update = buildShipmentUpdate(
      storedShipment(),
      edited((v) => {
        v.packages[1].quantity = '3';
        v.packages[0].description = 'Paperbacks';
      }),
    );
    expect(update.paths).toEqual(['packages']);
    expect(update.shipment.packages?.[0]?.description).toBe('Paperbacks');
    expect(update.shipment.packages?.[1]?.quantity).toBe(3);
  });

  it('sends the packages when a line was added or removed', () => {
    expect(buildShipmentUpdate(storedShipment(), edited((v) => v.packages.pop())).paths).toEqual(['packages']);
    expect(
      buildShipmentUpdate(
        storedShipment(),
        edited((v) =>
          v.packages.push({ quantity: '1', pieceType: 'Crate', description: 'Tools', length: '10', width: '10', height: '10', weight: '2' }),
        ),
      ).paths,
    ).toEqual(['packages']);
  });
});

describe('formFieldForViolation', () => {
  it('maps field paths of the API to form inputs', () => {
    expect(formFieldForViolation('shipper.email')).toBe('shipper.email');
    expect(formFieldForViolation('receiver.phone')).toBe('receiver.phone');
    expect(formFieldForViolation('packages[1].quantity')).toBe('packages.1.quantity');
    expect(formFieldForViolation('packages[0].piece_type')).toBe('packages.0.pieceType');
    expect(formFieldForViolation('packages[2].length_cm')).toBe('packages.2.length');
    expect(formFieldForViolation('packages[0].weight_kg')).toBe('packages.0.weight');
    expect(formFieldForViolation('origin')).toBe('origin');
    expect(formFieldForViolation('total_freight_cents')).toBe('totalFreight');
    expect(formFieldForViolation('weight_kg')).toBe('weight');
    expect(formFieldForViolation('expected_delivery_date')).toBe('expectedDeliveryDate');
    expect(formFieldForViolation('expected_delivery_date.month')).toBe('expectedDeliveryDate');
    expect(formFieldForViolation('payment_mode')).toBe('paymentMode');
    expect(formFieldForViolation('current_location')).toBe('currentLocation');
    expect(formFieldForViolation('shipment.shipper.email')).toBe('shipper.email');
    expect(formFieldForViolation('expectedDeliveryDate')).toBe('expectedDeliveryDate');
  });

  it('sends list-level and unknown paths to the form-level list', () => {
    expect(formFieldForViolation('packages')).toBe('packages');
    expect(formFieldForViolation('packages[1]')).toBe('packages');
    expect(formFieldForViolation('shipper')).toBeNull();
    expect(formFieldForViolation('update_mask')).toBeNull();
    expect(formFieldForViolation('id')).toBeNull();
    expect(formFieldForViolation('')).toBeNull();
  });
});
