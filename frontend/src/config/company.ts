// Everything that names the company, its figures and its testimonials (white-label).
// Another company runs the product under its own name by writing brand.json (see README,
// "White-label configuration"); VITE_* variables override single values on top of it.
// The defaults are the spec's values.
const env = import.meta.env;

export type Testimonial = { name: string; role: string; quote: string; rating: number };

const DEFAULTS = {
  name: 'Parcel Shipping Express',
  shortName: 'PSE',
  tagline: 'Global Shipping & Logistics Solutions',
  /** The ISO 4217 code amounts are shown in (freight on the tracking page and the waybill). */
  currency: 'USD',
  /** An SVG or modern image under public/ (e.g. "/brand/logo.svg"); empty: the built-in mark. */
  logo: { src: '', width: 36, height: 36 },
  supportEmail: 'support@parcelshippingexpress.com',
  address: '350 Fifth Avenue, New York, NY 10118, USA',
  copyrightYear: '2020',
  foundedYear: '2004',
  firstOffice: 'New York',
  /** Empty: the site's own wording in the visitor's language. */
  footerBlurb: '',
  social: {
    facebook: 'https://facebook.com/',
    twitter: 'https://twitter.com/',
    instagram: 'https://instagram.com/',
    linkedin: 'https://linkedin.com/',
  },
  /** Empty: the site's own wording in the visitor's language (src/hooks/use-business-hours.ts). */
  businessHours: [] as { days: string; hours: string }[],
  figures: {
    countries: '150+',
    years: '19+',
    packages: '1M+',
    satisfaction: '98%',
    clients: '50k+',
    onTime: '99%',
    support: '24/7',
    rating: '4.8',
    reviews: '1,482',
  },
  /** Home page: "What Our Clients Say"; empty: the site's own, in the visitor's language. */
  testimonials: [] as Testimonial[],
  /** Our Story page: the testimonial carousel; empty: the site's own. */
  storyTestimonials: [] as Testimonial[],
};

export type Company = typeof DEFAULTS;

type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** Objects merge key by key; anything else (text, lists) is replaced whole. */
export function merge<T>(base: T, override: DeepPartial<T> | undefined): T {
  if (override === undefined || override === null) return base;
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return override as T;
  const result = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(override as Record<string, unknown>)) {
    result[key] = key in result ? merge(result[key], value as never) : value;
  }
  return result as T;
}

function setting(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

const fromEnv: DeepPartial<Company> = JSON.parse(
  JSON.stringify({
    name: setting(env.VITE_COMPANY_NAME),
    shortName: setting(env.VITE_COMPANY_SHORT_NAME),
    tagline: setting(env.VITE_COMPANY_TAGLINE),
    currency: setting(env.VITE_CURRENCY),
    supportEmail: setting(env.VITE_SUPPORT_EMAIL),
    address: setting(env.VITE_COMPANY_ADDRESS),
    copyrightYear: setting(env.VITE_COPYRIGHT_YEAR),
    foundedYear: setting(env.VITE_FOUNDED_YEAR),
    firstOffice: setting(env.VITE_FIRST_OFFICE),
    footerBlurb: setting(env.VITE_FOOTER_BLURB),
    social: {
      facebook: setting(env.VITE_SOCIAL_FACEBOOK),
      twitter: setting(env.VITE_SOCIAL_TWITTER),
      instagram: setting(env.VITE_SOCIAL_INSTAGRAM),
      linkedin: setting(env.VITE_SOCIAL_LINKEDIN),
    },
  }),
);

export const company: Company = merge<Company>(merge<Company>(DEFAULTS, __BRAND__ as DeepPartial<Company>), fromEnv);
