import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { longDate } from '@/utils/today';

export default function PrivacyPage() {
  useDocumentTitle('Privacy Policy');
  return (
    <PageHero
      eyebrow="Legal"
      title="Privacy Policy"
      intro={`How ${company.name} collects, uses and protects your information.`}
    >
      <p className="page-hero-meta">Last updated: {longDate()}</p>
    </PageHero>
  );
}
