import { Link } from 'react-router-dom';
import { ArrowRight } from 'lucide-react';
import { CallToAction } from '@/components/ui/CallToAction';
import { CORE_SERVICES } from '@/components/ui/core-services';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { PageHero } from '@/components/ui/PageHero';
import { Section } from '@/components/ui/Section';
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
      <Section label="Freight modes">
        {/* Each card is the target of a footer link (/services#freight-mode-…). */}
        <FeatureCardGrid items={CORE_SERVICES} variant="service" headingLevel={2} anchored />
      </Section>
      <CallToAction
        titleId="services-cta"
        title="Ready to Ship?"
        text="Tell us about your cargo and we will recommend the best way to move it."
      >
        <Link to="/contact" className="btn btn-accent btn-lg">
          Get Started
          <ArrowRight aria-hidden="true" size={20} />
        </Link>
      </CallToAction>
    </>
  );
}
