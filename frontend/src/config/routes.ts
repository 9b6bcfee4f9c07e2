// Paths of the admin area, shared by the router and the admin features.
export const ADMIN_HOME_PATH = '/administration_and_development';
export const ADMIN_LOGIN_PATH = '/administration_and_development/login';
export const ADMIN_USERS_PATH = '/administration_and_development/users';
export const ADMIN_EMAILS_PATH = '/administration_and_development/emails';
export const ADMIN_SETTINGS_PATH = '/administration_and_development/settings';
export const ADMIN_AUDIT_PATH = '/administration_and_development/audit';
export const ADMIN_WEBHOOKS_PATH = '/administration_and_development/webhooks';
export const ADMIN_IMPORT_PATH = '/administration_and_development/import';
export const ADMIN_CUSTOMERS_PATH = '/administration_and_development/customers';
/** Visitors' requests for a customer account, a tab of the customers screen. */
export const ADMIN_ACCOUNT_REQUESTS_PATH = '/administration_and_development/customers/requests';
export const ADMIN_PICKUPS_PATH = '/administration_and_development/pickups';
/** Every staff user's own API keys. */
export const ADMIN_API_KEYS_PATH = '/administration_and_development/api-keys';
/** The rate cards: the public one and the customers' own. */
export const ADMIN_RATES_PATH = '/administration_and_development/rates';
/** The staff's queue of shipments that need attention (late, stalled, on hold, ...). */
export const ADMIN_EXCEPTIONS_PATH = '/administration_and_development/exceptions';

/** The exceptions queue showing one kind (`late`, `on_hold`, ...), as the dashboard links to it. */
export function exceptionsOfKindPath(kind: string): string {
  return `${ADMIN_EXCEPTIONS_PATH}?kind=${encodeURIComponent(kind)}`;
}

/** The shipments list searched for `query` (a tracking number finds its one shipment). */
export function shipmentSearchPath(query: string): string {
  return `${ADMIN_HOME_PATH}?${new URLSearchParams({ q: query }).toString()}`;
}

/** One rate card's edit screen: `public`, or the id of the customer whose card it is. */
export function rateCardPath(id: string): string {
  return `${ADMIN_RATES_PATH}/${encodeURIComponent(id)}`;
}

/** One customer's page: details, users and shipments. */
export function customerPath(id: string): string {
  return `${ADMIN_CUSTOMERS_PATH}/${encodeURIComponent(id)}`;
}

/** The shipments list showing one customer's shipments (and, with `query`, a search among them). */
export function customerShipmentsPath(customerId: string, query = ''): string {
  const params = new URLSearchParams({ customer: customerId });
  if (query) params.set('q', query);
  return `${ADMIN_HOME_PATH}?${params.toString()}`;
}
/** Every signed-in user's own password, sessions, language and theme. */
export const ADMIN_ACCOUNT_PATH = '/administration_and_development/account';
const ADMIN_LABELS_PATH = '/administration_and_development/labels';

/** What the print page lays out: a 4×6 in shipping label or an A4 waybill. */
export type PrintFormat = 'label' | 'waybill';

/** The print page for these shipment ids, e.g. `…/labels?ids=a1,b2&format=waybill`; the portal's
 * own page for a customer's user. */
export function labelsPath(ids: readonly string[], format: PrintFormat = 'label', area: PrintArea = 'staff'): string {
  const base = area === 'portal' ? PORTAL_LABELS_PATH : ADMIN_LABELS_PATH;
  return `${base}?ids=${ids.map(encodeURIComponent).join(',')}&format=${format}`;
}

// The customers' portal (their own shipments and bookings) and its sign-in.
export const PORTAL_HOME_PATH = '/portal';
export const PORTAL_LOGIN_PATH = '/portal/login';
export const PORTAL_BOOK_PATH = '/portal/book';
export const PORTAL_ADDRESS_BOOK_PATH = '/portal/address-book';
export const PORTAL_NOTIFICATIONS_PATH = '/portal/notifications';
export const PORTAL_PICKUPS_PATH = '/portal/pickups';
export const PORTAL_NEW_PICKUP_PATH = '/portal/pickups/new';
/** The customer's users: customer admins invite, disable and enable them. */
export const PORTAL_USERS_PATH = '/portal/users';
/** The customer's API keys: customer admins make and revoke them. */
export const PORTAL_API_KEYS_PATH = '/portal/api-keys';
/** The customer's own webhook endpoints: customer admins add, test and remove them. */
export const PORTAL_WEBHOOKS_PATH = '/portal/webhooks';

/** The pickup request form with one shipment ticked. */
export function portalPickupForPath(shipmentId: string): string {
  return `${PORTAL_NEW_PICKUP_PATH}?shipment=${encodeURIComponent(shipmentId)}`;
}
const PORTAL_LABELS_PATH = '/portal/labels';

/** One of the customer's shipments in the portal. */
export function portalShipmentPath(id: string): string {
  return `${PORTAL_HOME_PATH}/shipments/${encodeURIComponent(id)}`;
}

/** Which side prints: staff (ShipmentService) or a customer's user (CustomerPortalService). */
export type PrintArea = 'staff' | 'portal';

/** Whether a path is the portal's. */
export function isPortalPath(pathname: string): boolean {
  return pathname === PORTAL_HOME_PATH || pathname.startsWith(`${PORTAL_HOME_PATH}/`);
}

/** Whether a page is in the language picked in the browser, not its path's: the portal's and
 * the courier app's. */
export function isInChosenLanguage(pathname: string): boolean {
  return isPortalPath(pathname) || pathname === COURIER_HOME_PATH || pathname.startsWith(`${COURIER_HOME_PATH}/`);
}

/** The courier app: the day's round, scanning labels, recording events (offline too). */
export const COURIER_HOME_PATH = '/courier';
