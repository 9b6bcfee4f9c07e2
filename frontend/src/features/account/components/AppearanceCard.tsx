import { useSyncExternalStore } from 'react';
import { Palette } from 'lucide-react';
import { LANGUAGES, languageByCode, pathInLanguage, type LanguageCode } from '@/config/languages';
import type { Translate } from '@/lib/i18n';
import { subscribeTheme, type ThemeChoice } from '@/lib/theme';
import { chooseThemeChoice, storedThemeChoice } from '@/lib/theme-choice';

const THEMES: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'light', label: 'account.appearance.light' },
  { value: 'dark', label: 'account.appearance.dark' },
  { value: 'system', label: 'account.appearance.system' },
];

type AppearanceCardProps = { t: Translate; language: LanguageCode; onLanguage: (language: LanguageCode) => void };

/** Theme (light, dark or the system's; the same choice as the floating toggle, saved for the
 * user) and the language of this page and of the public site, remembered in this browser. */
export function AppearanceCard({ t, language, onLanguage }: AppearanceCardProps) {
  const theme = useSyncExternalStore(subscribeTheme, storedThemeChoice, () => 'system' as const);
  return (
    <section className="card account-card" aria-labelledby="appearance-heading">
      <h2 id="appearance-heading" className="card-title">
        <Palette aria-hidden="true" size={20} />
        {t('account.appearance.heading')}
      </h2>
      <fieldset className="account-choices">
        <legend className="field-label">{t('account.appearance.theme')}</legend>
        {THEMES.map((choice) => (
          <label key={choice.value} className="account-choice">
            <input
              type="radio"
              name="theme"
              value={choice.value}
              checked={theme === choice.value}
              onChange={() => chooseThemeChoice(choice.value)}
            />
            {t(choice.label)}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="site-language" className="field-label">
          {t('account.appearance.language')}
        </label>
        <select
          id="site-language"
          className="input"
          value={language}
          aria-describedby="site-language-hint"
          onChange={(event) => onLanguage(event.target.value as LanguageCode)}
        >
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
        <p id="site-language-hint" className="field-hint">
          {t('account.appearance.language_hint')}{' '}
          <a href={pathInLanguage('/', language)} hrefLang={language}>
            {t('account.appearance.open_site', { language: languageByCode(language).name })}
          </a>
        </p>
      </div>
    </section>
  );
}
