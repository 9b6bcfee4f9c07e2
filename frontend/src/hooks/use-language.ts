import { languageByCode, pathInLanguage, type Language } from '@/config/languages';
import { useCurrentLanguage } from '@/lib/i18n';

/** The page's language, and `path(to)` that turns a site path ("/about") into the same page in
 * that language ("/es/about"), for every link of a public page. */
export function useLanguage(): { language: Language; path: (to: string) => string } {
  const language = languageByCode(useCurrentLanguage());
  return { language, path: (to: string) => pathInLanguage(to, language.code) };
}
