// The language a visitor picked (switcher or suggestion), kept so the suggestion is not offered
// again. Storage may be unavailable (private modes); then the suggestion may show again.
import { DEFAULT_LANGUAGE, preferredLanguage, type LanguageCode } from '@/config/languages';

export const LANGUAGE_CHOICE_KEY = 'language-choice';
const KEY = LANGUAGE_CHOICE_KEY;

export function rememberLanguageChoice(code: LanguageCode): void {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // Not remembered: harmless.
  }
}

function hasChosenLanguage(): boolean {
  try {
    return localStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

/** The language the browser asks for first (Accept-Language), when the visitor has not picked
 * one and it is not the page's. */
export function languageToOffer(pageLanguage: LanguageCode): LanguageCode | undefined {
  if (hasChosenLanguage()) return undefined;
  const wanted = preferredLanguage(navigator.languages ?? [navigator.language]);
  return wanted && wanted !== pageLanguage ? wanted : undefined;
}

export function offersAnotherLanguage(pageLanguage: LanguageCode): boolean {
  return languageToOffer(pageLanguage) !== undefined;
}

/** The language of pages without a language in their path (the portal): the one picked in this
 * browser, else the browser's own, else English. */
export function chosenLanguage(): LanguageCode {
  let picked: string | null = null;
  try {
    picked = localStorage.getItem(KEY);
  } catch {
    // Storage unavailable: the browser's language.
  }
  return preferredLanguage([picked ?? '', ...(navigator.languages ?? [navigator.language])]) ?? DEFAULT_LANGUAGE;
}
