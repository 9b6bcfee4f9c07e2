import { Link } from 'react-router-dom';
import { Calculator, Clock, Mail, MapPin } from 'lucide-react';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { ContactForm } from '@/features/contact/components/ContactForm';
import { useBusinessHours } from '@/hooks/use-business-hours';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import './contact.css';

export default function ContactPage() {
  const t = useMessages('contact');
  const businessHours = useBusinessHours();
  const { path } = useLanguage();
  useDocumentTitle(t('contact.title'));
  return (
    <>
      <PageHero
        eyebrow={t('contact.hero.eyebrow')}
        title={t('contact.hero.title')}
        intro={t('contact.hero.intro')}
      />
      <div className="container section contact-layout">
        <section className="card contact-form-card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">{t('contact.form.title')}</h2>
          <ContactForm labelledBy="contact-form-title" />
        </section>
        <aside className="contact-details" aria-label={t('contact.details.label')}>
          {/* A price needs no message: the quote page gives it at once. */}
          <p className="card contact-quote">
            <Calculator aria-hidden="true" size={20} />
            <span>
              <Trans id="contact.details.quote" components={{ link: <Link to={path('/quote')} /> }} />
            </span>
          </p>
          <div className="card">
            <h2 className="card-title">
              <Mail aria-hidden="true" size={20} />
              {t('contact.details.email')}
            </h2>
            <p>
              <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
            </p>
          </div>
          <div className="card">
            <h2 className="card-title">
              <MapPin aria-hidden="true" size={20} />
              {t('contact.details.address')}
            </h2>
            <p>{company.address}</p>
          </div>
          <div className="card">
            <h2 className="card-title">
              <Clock aria-hidden="true" size={20} />
              {t('contact.details.hours')}
            </h2>
            <dl className="hours-list">
              {businessHours.map((slot) => (
                <div key={slot.days} className="detail-row">
                  <dt>{slot.days}</dt>
                  <dd>{slot.hours}</dd>
                </div>
              ))}
            </dl>
          </div>
        </aside>
      </div>
    </>
  );
}
