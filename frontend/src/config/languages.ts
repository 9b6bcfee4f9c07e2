// The languages of the shipment e-mails and of the tracking links in them; English is served at
// `/`, the others under their code (`/es/track/…`), as the e-mails link to them.

export type LanguageCode = 'en' | 'es' | 'fr' | 'ar';

/** Each language by its own name, as a reader picks it. */
export const LANGUAGES: readonly { code: LanguageCode; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
  { code: 'ar', name: 'العربية' },
];

/** The path prefixes of the languages other than English. */
export const LANGUAGE_PREFIXES = ['es', 'fr', 'ar'] as const;

/** The language a page's path is in: its first segment when that is a language's prefix. */
export function languageOfPath(pathname: string): LanguageCode {
  const first = pathname.split('/')[1] ?? '';
  return (LANGUAGE_PREFIXES as readonly string[]).includes(first) ? (first as LanguageCode) : 'en';
}
