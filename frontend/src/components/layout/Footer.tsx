import { Link } from 'react-router-dom';
import { Mail } from 'lucide-react';
import { company } from '@/config/company';
import { Logo } from './Logo';
import { NAV_ITEMS, SERVICE_LINKS } from './nav-links';
import { FacebookIcon, InstagramIcon, LinkedinIcon, TwitterIcon } from './SocialIcons';

const SOCIAL = [
  { label: 'Facebook', href: company.social.facebook, Icon: FacebookIcon },
  { label: 'Twitter', href: company.social.twitter, Icon: TwitterIcon },
  { label: 'Instagram', href: company.social.instagram, Icon: InstagramIcon },
  { label: 'LinkedIn', href: company.social.linkedin, Icon: LinkedinIcon },
];

function scrollToTop() {
  window.scrollTo({ top: 0, behavior: 'smooth' });
}

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

        <nav className="footer-col" aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links">Quick Links</h2>
          <ul>
            {NAV_ITEMS.map((item) => (
              <li key={item.to}>
                <Link to={item.to} onClick={scrollToTop}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <nav className="footer-col" aria-labelledby="footer-services">
          <h2 id="footer-services">Our Services</h2>
          <ul>
            {SERVICE_LINKS.map((service) => (
              <li key={service.anchor}>
                <Link to={`/services#${service.anchor}`}>{service.label}</Link>
              </li>
            ))}
          </ul>
        </nav>

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
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link to="/faq">FAQ</Link>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
