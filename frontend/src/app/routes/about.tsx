import { PageHero } from '@/components/ui/PageHero';
import { Section } from '@/components/ui/Section';
import { StatList } from '@/components/ui/StatList';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';

const FIGURES = [
  { label: 'Happy Clients', value: company.figures.clients },
  { label: 'On-time Delivery', value: company.figures.onTime },
  { label: 'Customer Support', value: company.figures.support },
];

export default function AboutPage() {
  useDocumentTitle('Our Story');
  return (
    <>
      <PageHero
        eyebrow="About us"
        title="Our Story"
        intro={`Founded in ${company.foundedYear} with our first office in ${company.firstOffice}, ${company.name} has grown into a global logistics partner trusted by businesses and families alike.`}
      />
      <Section label="At a glance">
        <StatList stats={FIGURES} />
      </Section>
    </>
  );
}
