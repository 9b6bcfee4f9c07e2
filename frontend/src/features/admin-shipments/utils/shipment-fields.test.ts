import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { ShipmentMode, ShipmentSchema, ShipmentStatus } from '@/gen/logistics/v1/shipment_pb';
import { shipmentSummary } from './shipment-fields';

describe('shipmentSummary', () => {
  it("lists the View dialog's terms in the table's order, with the values as shown", () => {
    const rows = shipmentSummary(
      create(ShipmentSchema, {
        trackingNumber: 'PSE123456789',
        status: ShipmentStatus.ON_HOLD,
        mode: ShipmentMode.SEA_SHIPPING,
        packageCount: 0,
        totalFreightCents: 125050n,
        languageCode: 'fr',
      }),
    );
    expect(rows.map((r) => r.term)).toEqual([
      'Tracking Number',
      'Status',
      'Customer',
      'Origin',
      'Destination',
      'Current Location',
      'Courier',
      'Carrier',
      'Type of Shipment',
      'Shipment Mode',
      'Payment Mode',
      'Product',
      'Product Quantity',
      'Package Count',
      'Total Freight',
      'Weight',
      'Expected Delivery',
      'Departure Time',
      'Pickup Date',
      'Pickup Time',
      'Total Volumetric Weight',
      'Total Volume',
      'Total Actual Weight',
      'Created',
      'Updated',
      'Comments',
    ]);
    const row = (term: string) => rows.find((r) => r.term === term)!;
    expect(row('Tracking Number')).toMatchObject({ value: 'PSE123456789', mono: true });
    expect(row('Status').value).toBe('On Hold');
    expect(row('Shipment Mode')).toMatchObject({ value: 'Sea Shipping', icon: 'sea' });
    expect(row('Type of Shipment').value).toBe('Not specified');
    expect(row('Package Count').value).toBe('0');
    expect(row('Total Freight').value).toBe('$1,250.50');
    expect(row('Expected Delivery').value).toBe('—');
    expect(row('Origin').value).toBe('');
    expect(row('Customer')).toMatchObject({ value: '—', customerId: undefined });
    expect(row('Courier').value).toBe('');
  });

  it("names the courier and the day of the round a shipment is on", () => {
    const rows = shipmentSummary(
      create(ShipmentSchema, {
        courierAssignment: { courierEmail: 'rider@example.com', date: { year: 2026, month: 11, day: 28 } },
      }),
    );
    expect(rows.find((r) => r.term === 'Courier')?.value).toBe('rider@example.com, Nov 28, 2026');
  });

  it("names the customer's id for the dialog to show its name", () => {
    const rows = shipmentSummary(create(ShipmentSchema, { customerId: 'c-42' }));
    expect(rows.find((r) => r.term === 'Customer')).toMatchObject({ value: 'c-42', customerId: 'c-42' });
  });
});
