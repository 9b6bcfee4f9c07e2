import { LegalDocument, type LegalSection } from '@/components/ui/LegalDocument';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useToday } from '@/hooks/use-today';
import { longDate } from '@/utils/today';

const SECTIONS: readonly LegalSection[] = [
  {
    title: 'Information We Collect',
    body: (
      <p>
        The names, addresses, e-mail addresses and phone numbers of shippers and receivers, the details of the goods you
        ship, and the messages you send us. When you visit the site we record technical data such as your browser and the
        pages you open.
      </p>
    ),
  },
  {
    title: 'How We Use Your Information',
    body: (
      <p>
        To carry, track and deliver your shipments, to send you shipping notifications, to answer your questions and to
        improve our services. We do not sell your personal information.
      </p>
    ),
  },
  {
    title: 'Information Sharing',
    body: (
      <p>
        We share shipment details only with the carriers, customs authorities and partners who need them to deliver your
        goods, and with authorities when the law requires it.
      </p>
    ),
  },
  {
    title: 'Data Security',
    body: (
      <p>
        Your data is encrypted in transit, access is limited to staff who need it, and our systems are monitored and
        updated regularly.
      </p>
    ),
  },
  {
    title: 'Your Rights',
    body: (
      <p>
        You may ask to see, correct or delete the personal information we hold about you, and object to its use, subject
        to the records we must keep by law.
      </p>
    ),
  },
  {
    title: 'Cookies',
    body: (
      <p>
        We use only the cookies the site needs to work, such as the sign-in session of administrators. Your colour theme
        and your last tracking result are kept in your own browser, so they are there next time, even offline.
      </p>
    ),
  },
  {
    title: 'Contact Us',
    body: (
      <p>
        Questions about this policy? Write to <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a> or to{' '}
        {company.name}, {company.address}.
      </p>
    ),
  },
];

export default function PrivacyPage() {
  useDocumentTitle('Privacy Policy');
  const today = useToday();
  return (
    <>
      <PageHero eyebrow="Legal" title="Privacy Policy" intro={`How ${company.name} collects, uses and protects your information.`}>
        <p className="page-hero-meta">
          Last updated: <time dateTime={today}>{longDate(today)}</time>
        </p>
      </PageHero>
      <LegalDocument sections={SECTIONS} />
    </>
  );
}
