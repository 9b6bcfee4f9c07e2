import { Link } from 'react-router-dom';
import { Mail } from 'lucide-react';
import { company } from '@/config/company';
import { useBusinessHours } from '@/hooks/use-business-hours';
import { useLanguage } from '@/hooks/use-language';
import { SMOOTH_SCROLL_TO_TOP } from '@/hooks/use-scroll-to-top-on-navigate';
import { useMessages } from '@/lib/i18n';
import { Logo } from './Logo';
import { NAV_ITEMS, SERVICE_LINKS } from './nav-links';
import { FacebookIcon, InstagramIcon, LinkedinIcon, TwitterIcon } from './SocialIcons';

const SOCIAL = [
  { label: 'Facebook', href: company.social.facebook, Icon: FacebookIcon },
  { label: 'Twitter', href: company.social.twitter, Icon: TwitterIcon },
  { label: 'Instagram', href: company.social.instagram, Icon: InstagramIcon },
  { label: 'LinkedIn', href: company.social.linkedin, Icon: LinkedinIcon },
];

/** `label` and `title` are message ids of the common catalogue. */
type FooterLink = { to: string; label: string; state?: unknown };

/** The two link columns: the site's pages (which scroll smoothly to the top) and the service
 * anchors (scrolled to and pulsed by useScrollToHash in the layout). */
const LINK_COLUMNS: ReadonlyArray<{ id: string; title: string; links: readonly FooterLink[] }> = [
  {
    id: 'footer-quick-links',
    title: 'common.footer.quick_links',
    links: NAV_ITEMS.map(({ to, label }) => ({ to, label, state: SMOOTH_SCROLL_TO_TOP })),
  },
  {
    id: 'footer-services',
    title: 'common.footer.services',
    links: SERVICE_LINKS.map(({ anchor, label }) => ({ to: `/services#${anchor}`, label })),
  },
];

const LEGAL_LINKS: readonly FooterLink[] = [
  { to: '/privacy', label: 'common.footer.privacy' },
  { to: '/terms', label: 'common.footer.terms' },
  { to: '/faq', label: 'common.footer.faq' },
];

/** The four-column site footer and its bottom bar. */
export function Footer() {
  const t = useMessages('common');
  const { path } = useLanguage();
  const hours = useBusinessHours();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section className="footer-col footer-brand" aria-labelledby="footer-about">
          <h2 id="footer-about" className="visually-hidden">
            {t('common.footer.about', { company: company.name })}
          </h2>
          <Logo />
          <p>{company.footerBlurb || t('common.footer.blurb')}</p>
          <ul className="social-links">
            {SOCIAL.map(({ label, href, Icon }) => (
              <li key={label}>
                <a href={href} target="_blank" rel="noopener noreferrer" aria-label={label}>
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
        </section>

        {LINK_COLUMNS.map((column) => (
          <nav key={column.id} className="footer-col" aria-labelledby={column.id}>
            <h2 id={column.id}>{t(column.title)}</h2>
            <ul>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={path(link.to)} state={link.state}>
                    {t(link.label)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}

        <section className="footer-col" aria-labelledby="footer-contact">
          <h2 id="footer-contact">{t('common.footer.contact')}</h2>
          <p className="footer-contact-line">
            <Mail aria-hidden="true" size={18} />
            <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
          </p>
          {/* Businesses that want an account ask for one on Ship with us. */}
          <p>
            <Link to={path('/ship-with-us')} state={SMOOTH_SCROLL_TO_TOP}>
              {t('common.footer.ship_with_us')}
            </Link>
          </p>
          {/* And anyone gets a price at once on the quote page. */}
          <p>
            <Link to={path('/quote')} state={SMOOTH_SCROLL_TO_TOP}>
              {t('common.footer.quote')}
            </Link>
          </p>
          <ul className="footer-hours">
            {hours.map((slot) => (
              <li key={slot.days}>
                <span>{slot.days}</span> <span>{slot.hours}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <div className="footer-bottom">
        <div className="container footer-bottom-inner">
          <p>{t('common.footer.copyright', { year: company.copyrightYear, company: company.name })}</p>
          <ul className="footer-legal">
            {LEGAL_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={path(link.to)}>{t(link.label)}</Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
