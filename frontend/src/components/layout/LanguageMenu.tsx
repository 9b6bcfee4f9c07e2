import { useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Globe } from 'lucide-react';
import { LANGUAGES, pathInLanguage, pathWithoutLanguage } from '@/config/languages';
import { useDismiss } from '@/hooks/use-dismiss';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { rememberLanguageChoice } from '@/lib/language-choice';

/** The language switcher: the same page in each language. Its links load the page anew, as each
 * language's pages are prerendered and only the visitor's own catalogue is ever loaded. */
export function LanguageMenu() {
  const t = useMessages('common');
  const { language } = useLanguage();
  const { pathname, search, hash } = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useDismiss(open, rootRef, buttonRef, () => setOpen(false));

  const page = pathWithoutLanguage(pathname);
  return (
    <div className="language-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="language-button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        <Globe aria-hidden="true" size={18} />
        <span className="visually-hidden">{t('common.language.label')}: </span>
        {language.name}
      </button>
      <ul id={listId} className="language-list" hidden={!open}>
        {LANGUAGES.map((l) => (
          <li key={l.code}>
            <a
              href={pathInLanguage(page, l.code) + search + hash}
              hrefLang={l.code}
              lang={l.code}
              aria-current={l.code === language.code ? 'true' : undefined}
              onClick={() => rememberLanguageChoice(l.code)}
            >
              {l.name}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
