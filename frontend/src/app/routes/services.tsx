import { Link } from 'react-router-dom';
import { ArrowRight } from 'lucide-react';
import { PageHero } from '@/components/ui/PageHero';
import { CORE_SERVICES } from '@/components/ui/core-services';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useScrollToHash } from '@/hooks/use-scroll-to-hash';

export default function ServicesPage() {
  useDocumentTitle('Our Services');
  useScrollToHash();
  return (
    <>
      <PageHero
        eyebrow="What we do"
        title="Our Services"
        intro="Air, sea and ground freight plus warehousing: one partner for every leg of your supply chain."
      />
      <section className="section" aria-label="Freight modes">
        <div className="container">
          <ul className="card-grid card-grid-4">
            {CORE_SERVICES.map(({ id, Icon, title, text }) => (
              <li key={id} id={id} className="card service-card" tabIndex={-1}>
                <span className="feature-icon">
                  <Icon aria-hidden="true" size={26} />
                </span>
                <h2 className="card-heading">{title}</h2>
                <p>{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="cta" aria-labelledby="services-cta">
        <div className="container cta-inner">
          <h2 id="services-cta">Ready to Ship?</h2>
          <p>Tell us about your cargo and we will recommend the best way to move it.</p>
          <div className="button-row">
            <Link to="/contact" className="btn btn-accent btn-lg">
              Get Started
              <ArrowRight aria-hidden="true" size={20} />
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
