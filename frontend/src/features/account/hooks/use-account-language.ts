import { startTransition, useState } from 'react';
import { preferredLanguage, type LanguageCode } from '@/config/languages';
import { LANGUAGE_CHOICE_KEY, rememberLanguageChoice } from '@/lib/language-choice';

/** The language picked in this browser, if any. */
function rememberedLanguageChoice(): LanguageCode | undefined {
  try {
    return preferredLanguage([localStorage.getItem(LANGUAGE_CHOICE_KEY) ?? '']);
  } catch {
    return undefined;
  }
}

/** The account page's language: the one picked in this browser (the public site's switcher
 * keeps the same choice), else the browser's own, else English. The preferences service stores
 * no language, so the choice stays in this browser. A new choice keeps the page on screen until
 * its catalogue has arrived. */
export function useAccountLanguage(): [LanguageCode, (language: LanguageCode) => void] {
  const [language, setLanguage] = useState<LanguageCode>(
    () => rememberedLanguageChoice() ?? preferredLanguage(navigator.languages ?? [navigator.language]) ?? 'en',
  );
  const choose = (code: LanguageCode) => {
    rememberLanguageChoice(code);
    startTransition(() => setLanguage(code));
  };
  return [language, choose];
}
