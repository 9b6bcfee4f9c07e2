import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { longDate } from '@/utils/today';

export default function TermsPage() {
  useDocumentTitle('Terms of Service');
  return (
    <PageHero
      eyebrow="Legal"
      title="Terms of Service"
      intro={`The terms that apply when you use the services of ${company.name}.`}
    >
      <p className="page-hero-meta">Last updated: {longDate()}</p>
    </PageHero>
  );
}
