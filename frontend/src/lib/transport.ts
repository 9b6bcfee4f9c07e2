// THE one place that builds the Connect transport and the service clients (src/app/data-provider.tsx
// hands the same transport to Connect Query).
// Only lazily loaded routes import this module, so the home page does not load
// the Connect and protobuf runtime.
import { Code, ConnectError, createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import { AuthService } from '@/gen/logistics/v1/auth_service_pb';
import { NotificationService } from '@/gen/logistics/v1/notification_service_pb';
import { PreferenceService } from '@/gen/logistics/v1/preference_service_pb';
import { SessionService } from '@/gen/logistics/v1/session_service_pb';
import { ShipmentService } from '@/gen/logistics/v1/shipment_service_pb';
import { notifySessionExpired } from './session-events';

/**
 * An admin call answered Unauthenticated: the session cookie expired or was deleted.
 * SessionService answers for itself (GetSession without a session is not an expiry) and a
 * wrong password at sign-in is not one either.
 */
const sessionExpiry: Interceptor = (next) => async (request) => {
  try {
    return await next(request);
  } catch (error) {
    if (
      error instanceof ConnectError &&
      error.code === Code.Unauthenticated &&
      request.service.typeName !== SessionService.typeName
    ) {
      notifySessionExpired();
    }
    throw error;
  }
};

/** gRPC-web to the gateway, which serves this page from the same origin (the session cookie
 * travels with every call). A path, not `location.origin`: the build prerenders /track in Node. */
export const transport = createGrpcWebTransport({
  baseUrl: '/',
  // The calls of Connect Query's hooks take no per-call options: they get the clients' usual 15 s.
  defaultTimeoutMs: 15_000,
  interceptors: [sessionExpiry],
});

export const shipmentClient: Client<typeof ShipmentService> = createClient(ShipmentService, transport);
export const sessionClient: Client<typeof SessionService> = createClient(SessionService, transport);
export const authClient: Client<typeof AuthService> = createClient(AuthService, transport);
export const notificationClient: Client<typeof NotificationService> = createClient(NotificationService, transport);
export const preferenceClient: Client<typeof PreferenceService> = createClient(PreferenceService, transport);
