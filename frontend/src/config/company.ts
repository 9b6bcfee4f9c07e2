// Everything that names the company. Another company can run the product under its own
// name by setting these VITE_* variables at build time; the defaults are the spec's values.
const env = import.meta.env;

function setting(value: string | undefined, fallback: string): string {
  const trimmed = value?.trim();
  return trimmed ? trimmed : fallback;
}

export const company = {
  name: setting(env.VITE_COMPANY_NAME, 'Parcel Shipping Express'),
  shortName: setting(env.VITE_COMPANY_SHORT_NAME, 'PSE'),
  tagline: setting(env.VITE_COMPANY_TAGLINE, 'Global Shipping & Logistics Solutions'),
  supportEmail: setting(env.VITE_SUPPORT_EMAIL, 'support@parcelshippingexpress.com'),
  copyrightYear: setting(env.VITE_COPYRIGHT_YEAR, '2020'),
  foundedYear: setting(env.VITE_FOUNDED_YEAR, '2004'),
  firstOffice: setting(env.VITE_FIRST_OFFICE, 'New York'),
  footerBlurb: setting(
    env.VITE_FOOTER_BLURB,
    'Your trusted partner in global logistics and transportation, delivering shipping solutions since 2020.',
  ),
  social: {
    facebook: setting(env.VITE_SOCIAL_FACEBOOK, 'https://facebook.com/'),
    twitter: setting(env.VITE_SOCIAL_TWITTER, 'https://twitter.com/'),
    instagram: setting(env.VITE_SOCIAL_INSTAGRAM, 'https://instagram.com/'),
    linkedin: setting(env.VITE_SOCIAL_LINKEDIN, 'https://linkedin.com/'),
  },
  businessHours: [
    { days: 'Mon-Fri', hours: '9:00 AM-6:00 PM' },
    { days: 'Sat', hours: '9:00 AM-1:00 PM' },
    { days: 'Sun', hours: 'Closed' },
  ],
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
} as const;
