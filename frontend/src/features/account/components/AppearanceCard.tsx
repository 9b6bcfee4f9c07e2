import { useState, useSyncExternalStore } from 'react';
import { Palette } from 'lucide-react';
import { LANGUAGES, languageByCode, pathInLanguage, preferredLanguage, type LanguageCode } from '@/config/languages';
import { subscribeTheme, type ThemeChoice } from '@/lib/theme';
import { chooseThemeChoice, storedThemeChoice } from '@/lib/theme-choice';
import { LANGUAGE_CHOICE_KEY, rememberLanguageChoice } from '@/lib/language-choice';

const THEMES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'Same as this device' },
];

/** The language picked in this browser, if any. */
function rememberedLanguageChoice(): LanguageCode | undefined {
  try {
    return preferredLanguage([localStorage.getItem(LANGUAGE_CHOICE_KEY) ?? '']);
  } catch {
    return undefined;
  }
}

/** Theme (light, dark or the system's; the same choice as the floating toggle, saved for the
 * user) and the public site's language. The back office itself is in English only. */
export function AppearanceCard() {
  const theme = useSyncExternalStore(subscribeTheme, storedThemeChoice, () => 'system' as const);
  const [language, setLanguage] = useState<LanguageCode>(
    () => rememberedLanguageChoice() ?? preferredLanguage(navigator.languages ?? [navigator.language]) ?? 'en',
  );
  return (
    <section className="card account-card" aria-labelledby="appearance-heading">
      <h2 id="appearance-heading" className="card-title">
        <Palette aria-hidden="true" size={20} />
        Language and Theme
      </h2>
      <fieldset className="account-choices">
        <legend className="field-label">Theme</legend>
        {THEMES.map((t) => (
          <label key={t.value} className="account-choice">
            <input
              type="radio"
              name="theme"
              value={t.value}
              checked={theme === t.value}
              onChange={() => chooseThemeChoice(t.value)}
            />
            {t.label}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="site-language" className="field-label">
          Public site language
        </label>
        <select
          id="site-language"
          className="input"
          value={language}
          aria-describedby="site-language-hint"
          onChange={(event) => {
            const code = event.target.value as LanguageCode;
            setLanguage(code);
            rememberLanguageChoice(code);
          }}
        >
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
        <p id="site-language-hint" className="field-hint">
          The back office is in English. The public site&apos;s language is part of its address; your choice is
          remembered in this browser.{' '}
          <a href={pathInLanguage('/', language)} hrefLang={language}>
            Open the public site in <span lang={language}>{languageByCode(language).name}</span>
          </a>
        </p>
      </div>
    </section>
  );
}
