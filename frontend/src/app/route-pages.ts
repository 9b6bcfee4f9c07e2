import { pathWithoutLanguage } from '@/config/languages';
import { ADMIN_HOME_PATH } from '@/config/routes';
import type { Page } from '@/lib/i18n';

// The catalogue of each public route (src/app/routes.tsx), by the path's first segment.
const PAGES_BY_FIRST_SEGMENT: Record<string, Page> = {
  '': 'home',
  about: 'about',
  services: 'services',
  contact: 'contact',
  track: 'track',
  privacy: 'privacy',
  terms: 'terms',
  faq: 'faq',
  invitation: 'portal',
  portal: 'portal',
  'ship-with-us': 'ship_with_us',
  quote: 'quote',
  courier: 'courier',
};

/** The catalogue a path's page needs besides `common` (the admin area, in English, needs none). */
export function pageOfPath(pathname: string): Page {
  const first = pathWithoutLanguage(pathname).split('/')[1] ?? '';
  if (pathname.startsWith(ADMIN_HOME_PATH)) return 'common';
  return PAGES_BY_FIRST_SEGMENT[first] ?? 'not_found';
}
