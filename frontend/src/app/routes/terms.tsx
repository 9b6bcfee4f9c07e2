import { Link } from 'react-router-dom';
import { LegalDocument, type LegalSection } from '@/components/ui/LegalDocument';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useToday } from '@/hooks/use-today';
import { longDate } from '@/utils/today';

const SECTIONS: readonly LegalSection[] = [
  {
    title: 'Acceptance of Terms',
    body: <p>By using this website or our shipping services you agree to these terms. If you do not agree, please do not use them.</p>,
  },
  {
    title: 'Service Description',
    body: (
      <p>
        {company.name} offers air, sea and ground freight, warehousing and online shipment tracking. The exact service,
        price and delivery estimate of a shipment are those of its confirmed quote.
      </p>
    ),
  },
  {
    title: 'User Responsibilities',
    body: (
      <p>
        You give accurate shipment details, pack goods properly, and do not ship prohibited or dangerous items. You are
        responsible for customs duties unless agreed otherwise.
      </p>
    ),
  },
  {
    title: 'Shipping Policies',
    body: (
      <p>
        Delivery times are estimates (air 1-3 business days, ground 2-5, sea 10-30). We may inspect shipments and refuse
        goods that break the law or these terms.
      </p>
    ),
  },
  {
    title: 'Limitation of Liability',
    body: (
      <p>
        Our liability for loss or damage is limited to the declared value of the shipment, or the limits of the applicable
        international conventions, unless you bought cargo insurance.
      </p>
    ),
  },
  {
    title: 'Intellectual Property',
    body: <p>The content, name and logo of this website belong to {company.name} and may not be used without permission.</p>,
  },
  {
    title: 'Termination',
    body: <p>We may suspend or end access to our services for anyone who breaks these terms.</p>,
  },
  {
    title: 'Modifications',
    body: <p>We may change these terms; the date above shows the latest version, which applies from the day it is published.</p>,
  },
  {
    title: 'Contact Information',
    body: (
      <p>
        Questions about these terms? Write to <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a> or use
        our <Link to="/contact">contact page</Link>.
      </p>
    ),
  },
];

export default function TermsPage() {
  useDocumentTitle('Terms of Service');
  const today = useToday();
  return (
    <>
      <PageHero eyebrow="Legal" title="Terms of Service" intro={`The terms that apply when you use the services of ${company.name}.`}>
        <p className="page-hero-meta">
          Last updated: <time dateTime={today}>{longDate(today)}</time>
        </p>
      </PageHero>
      <LegalDocument sections={SECTIONS} numbered />
    </>
  );
}
