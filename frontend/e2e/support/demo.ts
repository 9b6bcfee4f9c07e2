import { readFileSync } from 'node:fs';
import { demoFile } from './env';

/** A shipment as `gateway demo --json` prints it (the spec's document shape, camelCase). */
export type DemoShipment = {
  id: string;
  trackingNumber: string;
  status: string;
  shipperName: string;
  shipperAddress: string;
  shipperPhone: string;
  shipperEmail: string;
  receiverName: string;
  receiverAddress: string;
  receiverPhone: string;
  receiverEmail: string;
  origin: string;
  destination: string;
  carrier: string;
  typeOfShipment: string;
  shipmentMode: string;
  packageCount: number;
  product: string;
  productQuantity: number;
  paymentMode: string;
  totalFreightCents: number | string;
  weight: number;
  expectedDeliveryDate: string;
  departureTime: string;
  pickupDate: string;
  pickupTime: string;
  packages: Array<{
    quantity: number;
    pieceType: string;
    description: string;
    length: number;
    width: number;
    height: number;
    weight: number;
  }>;
  comments: string;
  currentLocation: string;
  shipmentHistory: Array<{
    timestamp: string;
    date: string;
    time: string;
    location: string;
    status: string;
    updatedBy: string;
    remarks: string;
  }>;
  totalActualWeight: number;
};

let cache: DemoShipment[] | undefined;

export function demoShipments(): DemoShipment[] {
  cache ??= JSON.parse(readFileSync(demoFile(), 'utf8')) as DemoShipment[];
  return cache;
}

/** The first demo shipment in this status (the demo data has every status). */
export function demoShipmentWithStatus(status: string): DemoShipment {
  const found = demoShipments().find((s) => s.status === status);
  if (!found) throw new Error(`no demo shipment with status ${status}`);
  return found;
}
