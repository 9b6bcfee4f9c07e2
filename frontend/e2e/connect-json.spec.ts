// The JSON API as the Connect project's own client speaks it (createConnectTransport, JSON
// format): a sign-in, a booking, a lookup and a field violation, against the real gateway.
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-web';
import { expect, test } from '@playwright/test';
import { SessionService } from '../src/gen/logistics/v1/session_service_pb';
import { ShipmentService } from '../src/gen/logistics/v1/shipment_service_pb';
import { BadRequestSchema } from '../src/gen/google/rpc/error_details_pb';
import { adminEmail, adminPassword } from './support/admin';
import { siteUrl } from './support/env';
import { fetchThrough } from './support/rpc';
import { partiesFor } from './support/tracking';
import { PaymentMode, ShipmentMode, ShipmentType } from '../src/gen/logistics/v1/shipment_pb';

test('the Connect client books and looks up a shipment over JSON, and reads a field violation', async ({ request }) => {
  const origin = siteUrl();
  const transport = createConnectTransport({ baseUrl: origin, useBinaryFormat: false, fetch: fetchThrough(request, origin) });
  const sessions = createClient(SessionService, transport);
  const shipments = createClient(ShipmentService, transport);

  const signedOut = await shipments.listShipments({}).catch((e: unknown) => ConnectError.from(e));
  expect(signedOut).toBeInstanceOf(ConnectError);
  expect((signedOut as ConnectError).code).toBe(Code.Unauthenticated);

  await sessions.createSession({ email: adminEmail(), password: adminPassword() });
  const { shipper, receiver } = partiesFor(`json-${Date.now()}`);
  const booking = {
    shipper,
    receiver,
    origin: 'Oslo, Norway',
    destination: 'Busan, Korea',
    carrier: 'Maersk',
    type: ShipmentType.EXPRESS,
    mode: ShipmentMode.SEA_SHIPPING,
    packageCount: 1,
    product: 'Salmon',
    productQuantity: 1,
    paymentMode: PaymentMode.CASH,
    totalFreightCents: 12_050n,
    weightKg: 12.5,
    expectedDeliveryDate: { year: 2030, month: 3, day: 1 },
    departureTime: { hours: 8, minutes: 30 },
    pickupDate: { year: 2030, month: 2, day: 1 },
    pickupTime: { hours: 9, minutes: 15 },
    packages: [{ quantity: 1, pieceType: 'Box', description: 'Fish', lengthCm: 40, widthCm: 30, heightCm: 20, weightKg: 12.5 }],
  };
  const made = await shipments.createShipment({ shipment: booking });
  expect(made.trackingNumber).toMatch(/^[A-Z]{3}\d{9}$/);
  expect(made.totalFreightCents).toBe(12_050n);

  const found = await shipments.getShipmentByTrackingNumber({ trackingNumber: made.trackingNumber });
  expect(found.trackingNumber).toBe(made.trackingNumber);
  expect(found.packages[0]?.description).toBe('Fish');

  const refused = await shipments
    .createShipment({ shipment: { ...booking, receiver: { ...receiver, email: 'not an address' } } })
    .catch((e: unknown) => ConnectError.from(e));
  expect(refused).toBeInstanceOf(ConnectError);
  const error = refused as ConnectError;
  expect(error.code).toBe(Code.InvalidArgument);
  const fields = error.findDetails(BadRequestSchema).flatMap((bad) => bad.fieldViolations.map((v) => v.field));
  expect(fields).toContain('receiver.email');
});
