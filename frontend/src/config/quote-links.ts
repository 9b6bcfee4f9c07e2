// The links between the quote page and the portal: its booking from a quote, and the sign-in
// that goes on to it. Apart from routes.ts, which the first page's chunk carries.
import { PORTAL_BOOK_PATH, PORTAL_LOGIN_PATH, isPortalPath } from './routes';

/** The public "Get a quote" page (in the page's language through `useLanguage().path`). */
export const QUOTE_PATH = '/quote';

/** The booking form prefilled from a quote (its token) and one of its services. */
export function portalBookFromQuotePath(token: string, serviceCode: string): string {
  return `${PORTAL_BOOK_PATH}?${new URLSearchParams({ quote: token, service: serviceCode }).toString()}`;
}

/** The portal's sign-in, which goes on to `next` (a portal path) once signed in. */
export function portalLoginPath(next?: string): string {
  return next ? `${PORTAL_LOGIN_PATH}?${new URLSearchParams({ next }).toString()}` : PORTAL_LOGIN_PATH;
}

/** The `next` of the portal's sign-in when it is one of the portal's own pages (never another
 * site, nor the sign-in itself); null otherwise. */
export function portalNextPath(next: string | null): string | null {
  if (!next || !isPortalPath(next) || next.startsWith('//') || /[\\\s]/.test(next)) return null;
  const path = next.split(/[?#]/)[0];
  return path === PORTAL_LOGIN_PATH ? null : next;
}
