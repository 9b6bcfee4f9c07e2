import { Link } from 'react-router-dom';
import { Home, Info, Layers, Mail, PackageSearch } from 'lucide-react';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';

const HELP_LINKS = [
  { to: '/contact', Icon: Mail, label: 'not_found.contact' },
  { to: '/services', Icon: Layers, label: 'not_found.services' },
  { to: '/about', Icon: Info, label: 'not_found.about' },
];

/** The 404 page for any unknown route. */
export default function NotFoundPage() {
  const t = useMessages('not_found');
  const { path } = useLanguage();
  useDocumentTitle(t('not_found.title'));
  return (
    <section className="container not-found" aria-labelledby="not-found-title">
      <p className="not-found-code">404</p>
      <h1 id="not-found-title">{t('not_found.title')}</h1>
      <p className="not-found-text">{t('not_found.text')}</p>
      <div className="button-row">
        <Link to={path('/')} className="btn btn-primary btn-lg">
          <Home aria-hidden="true" size={20} />
          {t('common.return_home')}
        </Link>
        <Link to={path('/track')} className="btn btn-outline btn-lg">
          <PackageSearch aria-hidden="true" size={20} />
          {t('common.nav.track')}
        </Link>
      </div>
      <nav className="not-found-help" aria-label={t('not_found.help_label')}>
        <p>{t('not_found.help')}</p>
        <ul>
          {HELP_LINKS.map(({ to, Icon, label }) => (
            <li key={to}>
              <Link to={path(to)}>
                <Icon aria-hidden="true" size={18} />
                {t(label)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
