// THE one place that builds the Connect transport and the service clients.
// Only lazily loaded routes import this module, so the home page does not load
// the Connect and protobuf runtime.
import { createClient, type Client } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';

/** gRPC-web to the gateway, which serves this page from the same origin. */
export const transport = createGrpcWebTransport({ baseUrl: window.location.origin });

export const shipmentClient: Client<typeof ShipmentService> = createClient(ShipmentService, transport);
