import { Link } from 'react-router-dom';
import { Mail } from 'lucide-react';
import { company } from '@/config/company';
import { SMOOTH_SCROLL_TO_TOP } from '@/hooks/use-scroll-to-top-on-navigate';
import { Logo } from './Logo';
import { NAV_ITEMS, SERVICE_LINKS } from './nav-links';
import { FacebookIcon, InstagramIcon, LinkedinIcon, TwitterIcon } from './SocialIcons';

const SOCIAL = [
  { label: 'Facebook', href: company.social.facebook, Icon: FacebookIcon },
  { label: 'Twitter', href: company.social.twitter, Icon: TwitterIcon },
  { label: 'Instagram', href: company.social.instagram, Icon: InstagramIcon },
  { label: 'LinkedIn', href: company.social.linkedin, Icon: LinkedinIcon },
];

type FooterLink = { to: string; label: string; state?: unknown };

/** The two link columns: the site's pages (which scroll smoothly to the top) and the service
 * anchors (scrolled to and pulsed by useScrollToHash in the layout). */
const LINK_COLUMNS: ReadonlyArray<{ id: string; title: string; links: readonly FooterLink[] }> = [
  {
    id: 'footer-quick-links',
    title: 'Quick Links',
    links: NAV_ITEMS.map(({ to, label }) => ({ to, label, state: SMOOTH_SCROLL_TO_TOP })),
  },
  {
    id: 'footer-services',
    title: 'Our Services',
    links: SERVICE_LINKS.map(({ anchor, label }) => ({ to: `/services#${anchor}`, label })),
  },
];

const LEGAL_LINKS: readonly FooterLink[] = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/faq', label: 'FAQ' },
];

/** The four-column site footer and its bottom bar. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section className="footer-col footer-brand" aria-labelledby="footer-about">
          <h2 id="footer-about" className="visually-hidden">
            About {company.name}
          </h2>
          <Logo />
          <p>{company.footerBlurb}</p>
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
            <h2 id={column.id}>{column.title}</h2>
            <ul>
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} state={link.state}>
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}

        <section className="footer-col" aria-labelledby="footer-contact">
          <h2 id="footer-contact">Contact Us</h2>
          <p className="footer-contact-line">
            <Mail aria-hidden="true" size={18} />
            <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
          </p>
          <ul className="footer-hours">
            {company.businessHours.map((slot) => (
              <li key={slot.days}>
                <span>{slot.days}</span> <span>{slot.hours}</span>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <div className="footer-bottom">
        <div className="container footer-bottom-inner">
          <p>
            © {company.copyrightYear} {company.name}. All rights reserved.
          </p>
          <ul className="footer-legal">
            {LEGAL_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
