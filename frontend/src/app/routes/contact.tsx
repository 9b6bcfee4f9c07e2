import { Clock, Mail, MapPin } from 'lucide-react';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { ContactForm } from '@/features/contact/components/ContactForm';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function ContactPage() {
  useDocumentTitle('Contact');
  return (
    <>
      <PageHero
        eyebrow="Get in touch"
        title="Contact Us"
        intro="Questions about a shipment, a quote or our services? Our team is happy to help."
      />
      <div className="container section contact-layout">
        <section className="card contact-form-card" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">Send Us a Message</h2>
          <ContactForm labelledBy="contact-form-title" />
        </section>
        <aside className="contact-details" aria-label="Contact details">
          <div className="card">
            <h2 className="card-title">
              <Mail aria-hidden="true" size={20} />
              Email
            </h2>
            <p>
              <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
            </p>
          </div>
          <div className="card">
            <h2 className="card-title">
              <MapPin aria-hidden="true" size={20} />
              Address
            </h2>
            <p>{company.address}</p>
          </div>
          <div className="card">
            <h2 className="card-title">
              <Clock aria-hidden="true" size={20} />
              Business Hours
            </h2>
            <dl className="hours-list">
              {company.businessHours.map((slot) => (
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
