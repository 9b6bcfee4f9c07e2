import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { CustomerSchema } from '@/gen/logistics/v1/customer_pb';
import { PaymentMode, ShipmentMode, ShipmentType } from '@/gen/logistics/v1/shipment_pb';
import { bookingDefaults, bookingFieldOf, bookingFromQuote, bookingToShipment } from './booking';

const customer = create(CustomerSchema, {
  name: 'Acme Imports',
  billingAddress: '1 Dock Road\nPort City',
  contacts: [
    { name: 'Ana', email: 'ana@acme.example', phone: '+1 555 0100' },
    { name: 'Bo', email: 'bo@acme.example', phone: '+1 555 0101' },
  ],
  defaultPaymentMode: PaymentMode.CASH,
});

describe('the booking form', () => {
  it('prefills the shipper from the customer and its first contact, and its payment mode', () => {
    const values = bookingDefaults(customer);
    expect(values.shipper).toEqual({ name: 'Acme Imports', address: '1 Dock Road\nPort City', phone: '+1 555 0100', email: 'ana@acme.example' });
    expect(values.paymentMode).toBe('cash');
    expect(values.packages).toHaveLength(1);
    // A customer without a default: the first payment mode.
    expect(bookingDefaults(create(CustomerSchema, { name: 'X' })).paymentMode).toBe('bank_transfer');
  });

  it('sends the packages (a decimal comma read), the pickup day and time, and leaves the figures to the server', () => {
    const values = bookingDefaults(customer);
    values.receiver = { name: ' Zed ', address: 'Rue 2', phone: '555 0199', email: '' };
    values.origin = 'Port City';
    values.destination = 'Lyon';
    values.type = 'express';
    values.mode = 'air_shipping';
    values.packages = [
      { quantity: '2', pieceType: 'Box', description: 'Books', length: '30', width: '20', height: '10', weight: '1,5' },
      { quantity: '1', pieceType: 'Crate', description: 'Tools', length: '50', width: '40', height: '30', weight: '4' },
    ];
    values.pickupDate = '2026-12-01';
    values.pickupTime = '09:30';
    const shipment = bookingToShipment(values);
    expect(shipment.receiver?.name).toBe('Zed');
    expect(shipment.type).toBe(ShipmentType.EXPRESS);
    expect(shipment.mode).toBe(ShipmentMode.AIR_SHIPPING);
    expect(shipment.paymentMode).toBe(PaymentMode.CASH);
    expect(shipment.packages?.[0]).toMatchObject({ quantity: 2, weightKg: 1.5, lengthCm: 30 });
    expect(shipment.pickupDate).toEqual({ year: 2026, month: 12, day: 1 });
    expect(shipment.pickupTime).toEqual({ hours: 9, minutes: 30 });
    // The server fills the goods, their count and weight, departure and delivery.
    expect(shipment.product).toBeUndefined();
    expect(shipment.packageCount).toBeUndefined();
    expect(shipment.expectedDeliveryDate).toBeUndefined();
  });

  it('puts a server violation next to its input', () => {
    expect(bookingFieldOf('shipment.receiver.phone')).toBe('receiver.phone');
    expect(bookingFieldOf('packages[1].weight_kg')).toBe('packages.1.weight');
    expect(bookingFieldOf('packages')).toBe('packages');
    expect(bookingFieldOf('pickup_date')).toBe('pickupDate');
    expect(bookingFieldOf('shipment.payment_mode')).toBe('paymentMode');
    expect(bookingFieldOf('carrier')).toBeNull();
  });
});

describe('a booking from a quote', () => {
  it('takes the places and the parcels of the quote', () => {
    const values = bookingFromQuote(
      bookingDefaults(undefined),
      {
        id: 'Q-7F3A9C2B1D',
        expires: new Date(1790000000 * 1000),
        currency: 'USD',
        origin: { country: 'NG', city: 'Lagos' },
        destination: { country: 'NL', city: '' },
        parcels: [
          { weightKg: 5, lengthCm: 40, widthCm: 30, heightCm: 20, count: 1 },
          { weightKg: 2.5, lengthCm: 0, widthCm: 0, heightCm: 0, count: 3 },
        ],
        options: [],
      },
      { code: 'SEA_FREIGHT', name: 'Sea Freight', price: 4500n, kg: 12.5, mode: ShipmentMode.SEA_SHIPPING },
      'en-US',
    );
    expect(values.origin).toBe('Lagos, Nigeria');
    expect(values.destination).toBe('Netherlands');
    expect(values.mode).toBe('sea_shipping');
    expect(values.packages).toEqual([
      { quantity: '1', pieceType: '', description: '', length: '40', width: '30', height: '20', weight: '5' },
      { quantity: '3', pieceType: '', description: '', length: '', width: '', height: '', weight: '2.5' },
    ]);
    expect(values.receiver).toEqual(bookingDefaults(undefined).receiver);
  });
});
