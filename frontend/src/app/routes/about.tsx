import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';

export default function AboutPage() {
  useDocumentTitle('Our Story');
  return (
    <>
      <PageHero
        eyebrow="About us"
        title="Our Story"
        intro={`Founded in ${company.foundedYear} with our first office in ${company.firstOffice}, ${company.name} has grown into a global logistics partner trusted by businesses and families alike.`}
      />
      <section className="section" aria-label="At a glance">
        <div className="container">
          <dl className="stats">
            <div className="stat">
              <dt>Happy Clients</dt>
              <dd>{company.figures.clients}</dd>
            </div>
            <div className="stat">
              <dt>On-time Delivery</dt>
              <dd>{company.figures.onTime}</dd>
            </div>
            <div className="stat">
              <dt>Customer Support</dt>
              <dd>{company.figures.support}</dd>
            </div>
          </dl>
        </div>
      </section>
    </>
  );
}
