// The build prerenders the marketing routes (scripts/prerender.mjs) and marks each page's
// <html> with the route it holds; public/theme-init.js hides a page served for another route.

const PRERENDERED_ROUTE_ATTRIBUTE = 'data-prerendered-route';
export const ROUTE_MISMATCH_CLASS = 'route-mismatch';

/** "/about/" and "/about" are the same page. */
export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

export function prerenderedPageMatches(html: Element, pathname: string): boolean {
  const route = html.getAttribute(PRERENDERED_ROUTE_ATTRIBUTE);
  return route !== null && normalizePath(route) === normalizePath(pathname);
}
