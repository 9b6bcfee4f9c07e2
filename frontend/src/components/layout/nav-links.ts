/** A link of the header or footer; `label` is a message id of the common catalogue. */
export type NavItem = { to: string; label: string; primary?: boolean };

/** The header's links, in order: Home, About, Services, Track Package, Contact. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'common.nav.home' },
  { to: '/about', label: 'common.nav.about' },
  { to: '/services', label: 'common.nav.services' },
  { to: '/track', label: 'common.nav.track', primary: true },
  { to: '/contact', label: 'common.nav.contact' },
];

/** The footer's service links and the Services page anchors they scroll to. */
export const SERVICE_LINKS = [
  { label: 'common.service.air.title', anchor: 'freight-mode-air-freight' },
  { label: 'common.service.sea.title', anchor: 'freight-mode-sea-freight' },
  { label: 'common.service.land.title', anchor: 'freight-mode-land-freight' },
  { label: 'common.service.warehousing.title', anchor: 'freight-mode-warehousing' },
] as const;
