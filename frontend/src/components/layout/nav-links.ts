export type NavItem = { to: string; label: string; primary?: boolean };

/** The header's links, in order (spec §2). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/services', label: 'Services' },
  { to: '/track', label: 'Track Package', primary: true },
  { to: '/contact', label: 'Contact' },
];

/** The footer's service links and the Services page anchors they scroll to. */
export const SERVICE_LINKS = [
  { label: 'Air Freight', anchor: 'freight-mode-air-freight' },
  { label: 'Sea Freight', anchor: 'freight-mode-sea-freight' },
  { label: 'Ground Transport', anchor: 'freight-mode-land-freight' },
  { label: 'Warehousing', anchor: 'freight-mode-warehousing' },
] as const;
