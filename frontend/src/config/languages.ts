// The languages of the site, the shipment e-mails and the tracking links in them. English is
// served at `/`, the others under their code (`/es/track/…`); a new language is one entry here
// (TypeScript then asks for its offer line; the build prerenders it) and one folder of
// catalogues in src/locales.

export type LanguageCode = 'en' | 'es' | 'fr' | 'ar';

export type Language = {
  code: LanguageCode;
  /** The language by its own name, as a reader picks it. */
  name: string;
  dir: 'ltr' | 'rtl';
  /** The locale Intl formats dates, numbers and money in. */
  locale: string;
};

export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', dir: 'ltr', locale: 'en-US' },
  { code: 'es', name: 'Español', dir: 'ltr', locale: 'es' },
  { code: 'fr', name: 'Français', dir: 'ltr', locale: 'fr' },
  { code: 'ar', name: 'العربية', dir: 'rtl', locale: 'ar' },
];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

/** The path prefixes of the languages other than English. */
export const LANGUAGE_PREFIXES = LANGUAGES.filter((l) => l.code !== DEFAULT_LANGUAGE).map((l) => l.code);

export function languageByCode(code: LanguageCode): Language {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0];
}

/** The language a page's path is in: its first segment when that is a language's prefix. */
export function languageOfPath(pathname: string): LanguageCode {
  const first = pathname.split('/')[1] ?? '';
  return (LANGUAGE_PREFIXES as readonly string[]).includes(first) ? (first as LanguageCode) : DEFAULT_LANGUAGE;
}

/** The path without its language prefix: "/es/track/PSE1" → "/track/PSE1", "/fr" → "/". One
 * leading slash, so a crafted "/es//evil.example" never becomes a link to another host. */
export function pathWithoutLanguage(pathname: string): string {
  const language = languageOfPath(pathname);
  const rest = language === DEFAULT_LANGUAGE ? pathname : pathname.slice(language.length + 1);
  return `/${rest.replace(/^\/+/, '')}`;
}

/** An English path as served in `language`: ("/about", "fr") → "/fr/about", ("/", "es") → "/es". */
export function pathInLanguage(path: string, language: LanguageCode): string {
  if (language === DEFAULT_LANGUAGE) return path;
  return path === '/' ? `/${language}` : `/${language}${path}`;
}

/** The supported language a browser asks for first (navigator.languages, Accept-Language order). */
export function preferredLanguage(browserLanguages: readonly string[]): LanguageCode | undefined {
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    const found = LANGUAGES.find((l) => l.code === base);
    if (found) return found.code;
  }
  return undefined;
}
