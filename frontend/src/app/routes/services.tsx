import { Link, useLocation } from 'react-router-dom';
import { ArrowRight, Boxes, Check, Clock, FileCheck2, Globe2, Headphones, Package, PackageSearch, ShieldCheck, Umbrella, Zap } from 'lucide-react';
import { CallToAction } from '@/components/ui/CallToAction';
import { Carousel } from '@/components/ui/Carousel';
import { CORE_SERVICES } from '@/components/ui/core-services';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { Marquee } from '@/components/ui/Marquee';
import { PageHero } from '@/components/ui/PageHero';
import { Section } from '@/components/ui/Section';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useHydrated } from '@/hooks/use-hydrated';
import { SCROLL_TARGET_ATTRIBUTE } from '@/hooks/use-scroll-to-hash';

type Offering = (typeof CORE_SERVICES)[number];

const FEATURES: Record<Offering['id'], readonly string[]> = {
  'freight-mode-air-freight': ['Express and deferred options', 'Charter for urgent cargo', 'Airport-to-door delivery'],
  'freight-mode-sea-freight': ['Full (FCL) and shared (LCL) containers', 'Port-to-port or door-to-door', 'Customs clearance included'],
  'freight-mode-land-freight': ['Full and part truckloads', 'Cross-border road freight', 'Same-day regional delivery'],
  'freight-mode-warehousing': ['Bonded and secure storage', 'Pick, pack and dispatch', 'Live inventory reports'],
};

const ADDITIONAL = [
  { Icon: FileCheck2, title: 'Customs Clearance', text: 'Licensed brokers prepare your paperwork and clear goods without delay.' },
  { Icon: Umbrella, title: 'Cargo Insurance', text: 'Cover for the full value of your shipment, door to door.' },
  { Icon: Package, title: 'Packaging', text: 'Crating and protective packing for fragile and oversized goods.' },
  { Icon: Zap, title: 'Express Delivery', text: 'Next-flight-out and same-day services when every hour counts.' },
  { Icon: Boxes, title: 'Freight Consolidation', text: 'Combine smaller loads into one shipment and pay less.' },
  { Icon: Globe2, title: 'Supply Chain Consulting', text: 'Route, mode and stock planning from our logistics experts.' },
];

const WHY = [
  { Icon: Clock, title: 'On-time Delivery', text: '99% of shipments arrive on or before the promised day.' },
  { Icon: ShieldCheck, title: 'Secure Handling', text: 'Sealed, scanned and insured at every hand-over.' },
  { Icon: PackageSearch, title: 'Real-time Tracking', text: 'One tracking number from pickup to delivery.' },
  { Icon: Headphones, title: '24/7 Support', text: 'A logistics expert on the line at any hour.' },
];

const CARRIERS = ['DHL', 'FedEx', 'UPS', 'Maersk', 'USPS', 'DB Schenker', 'SF Express', 'CMA CGM'];

/** One offering card; the small-screen copy carries the `-mobile` id suffix. */
function OfferingCard({ offering, mobile = false }: { offering: Offering; mobile?: boolean }) {
  const { id, Icon, title, text } = offering;
  return (
    <article
      id={mobile ? `${id}-mobile` : id}
      className="card service-card offering-card"
      tabIndex={-1}
      aria-labelledby={`${id}-title${mobile ? '-mobile' : ''}`}
      {...{ [SCROLL_TARGET_ATTRIBUTE]: '' }}
    >
      <span className="feature-icon">
        <Icon aria-hidden="true" size={26} />
      </span>
      <h2 id={`${id}-title${mobile ? '-mobile' : ''}`} className="card-heading">
        {title}
      </h2>
      <p>{text}</p>
      <ul className="offering-features">
        {FEATURES[id].map((feature) => (
          <li key={feature}>
            <Check aria-hidden="true" size={16} />
            {feature}
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function ServicesPage() {
  useDocumentTitle('Our Services');
  const { hash } = useLocation();
  // The carousel opens on the offering the URL names (after hydration: the HTML shows the first).
  const hydrated = useHydrated();
  const named = hydrated ? CORE_SERVICES.findIndex(({ id }) => hash.replace(/^#/, '').replace(/-mobile$/, '') === id) : -1;
  return (
    <>
      <PageHero
        eyebrow="What we do"
        title="Our Services"
        intro="Air, sea and ground freight plus warehousing: one partner for every leg of your supply chain."
      />
      <Section label="Freight modes">
        {/* Each card is the target of a footer link (/services#freight-mode-…). */}
        <Carousel
          key={named}
          className="only-small"
          label="Our services"
          items={CORE_SERVICES}
          initialIndex={Math.max(named, 0)}
          renderSlide={(offering) => <OfferingCard offering={offering} mobile />}
        />
        <ul className="card-grid card-grid-4 offering-grid only-large">
          {CORE_SERVICES.map((offering) => (
            <li key={offering.id}>
              <OfferingCard offering={offering} />
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="additional-title" title="Additional Services" alt>
        <FeatureCardGrid items={ADDITIONAL} columns={3} />
      </Section>

      <Section titleId="services-why-title" title="Why Choose Us">
        <FeatureCardGrid items={WHY} />
      </Section>

      <Section titleId="carriers-title" title="Our Carrier Network" alt>
        <Marquee label="Carrier partners" className="carrier-strip" items={CARRIERS.map((name) => <span className="carrier-logo">{name}</span>)} />
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
