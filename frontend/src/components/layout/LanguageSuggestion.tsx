import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { X } from 'lucide-react';
import { languageByCode, pathInLanguage, pathWithoutLanguage, type LanguageCode } from '@/config/languages';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { languageToOffer, rememberLanguageChoice } from '@/lib/language-choice';

/** The line that offers the site in a language, in that language: the visitor's catalogue is
 * the page's, not the offered one's. */
const OFFERS: Record<LanguageCode, string> = {
  en: 'This page is available in English.',
  es: 'Esta página está disponible en español.',
  fr: 'Cette page existe en français.',
  ar: 'هذه الصفحة متوفرة باللغة العربية.',
};

/** Offers the page in the language the browser asks for (Accept-Language), until the visitor
 * picks one: a suggestion, never a redirect. Rendered after hydration only. */
export default function LanguageSuggestion() {
  const t = useMessages('common');
  const { language } = useLanguage();
  const { pathname, search, hash } = useLocation();
  const [wanted, setWanted] = useState(() => languageToOffer(language.code));
  if (!wanted) return null;
  const offered = languageByCode(wanted);
  return (
    <aside className="language-suggestion" aria-label={offered.name} lang={offered.code} dir={offered.dir}>
      <div className="container language-suggestion-inner">
        <p>
          {OFFERS[offered.code]}{' '}
          <a
            href={pathInLanguage(pathWithoutLanguage(pathname), offered.code) + search + hash}
            hrefLang={offered.code}
            onClick={() => rememberLanguageChoice(offered.code)}
          >
            {offered.name}
          </a>
        </p>
        <button
          type="button"
          className="icon-button"
          lang={language.code}
          dir={language.dir}
          aria-label={t('common.language.dismiss')}
          onClick={() => {
            rememberLanguageChoice(language.code);
            setWanted(undefined);
          }}
        >
          <X aria-hidden="true" size={18} />
        </button>
      </div>
    </aside>
  );
}
