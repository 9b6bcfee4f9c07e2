import { Link, useLocation } from 'react-router-dom';
import { ArrowRight, Boxes, Check, Clock, FileCheck2, Globe2, Headphones, Package, PackageSearch, ShieldCheck, Umbrella, Zap } from 'lucide-react';
import { CallToAction } from '@/components/ui/CallToAction';
import { Carousel } from '@/components/ui/Carousel';
import { useCoreServices, type CoreService } from '@/components/ui/core-services';
import { FeatureCardGrid, type FeatureCardItem } from '@/components/ui/FeatureCardGrid';
import { Marquee } from '@/components/ui/Marquee';
import { PageHero } from '@/components/ui/PageHero';
import { Section } from '@/components/ui/Section';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useHydrated } from '@/hooks/use-hydrated';
import { useLanguage } from '@/hooks/use-language';
import { SCROLL_TARGET_ATTRIBUTE } from '@/hooks/use-scroll-to-hash';
import { useMessages } from '@/lib/i18n';
import './services.css';

const FEATURES: Record<CoreService['id'], readonly string[]> = {
  'freight-mode-air-freight': ['services.features.air.express', 'services.features.air.charter', 'services.features.air.delivery'],
  'freight-mode-sea-freight': ['services.features.sea.containers', 'services.features.sea.routes', 'services.features.sea.customs'],
  'freight-mode-land-freight': ['services.features.land.loads', 'services.features.land.cross_border', 'services.features.land.same_day'],
  'freight-mode-warehousing': ['services.features.warehousing.storage', 'services.features.warehousing.fulfilment', 'services.features.warehousing.reports'],
};

// Titles and texts are message ids, translated when the page renders.
const ADDITIONAL: readonly FeatureCardItem[] = [
  { Icon: FileCheck2, title: 'services.additional.customs.title', text: 'services.additional.customs.text' },
  { Icon: Umbrella, title: 'services.additional.insurance.title', text: 'services.additional.insurance.text' },
  { Icon: Package, title: 'services.additional.packaging.title', text: 'services.additional.packaging.text' },
  { Icon: Zap, title: 'services.additional.express.title', text: 'services.additional.express.text' },
  { Icon: Boxes, title: 'services.additional.consolidation.title', text: 'services.additional.consolidation.text' },
  { Icon: Globe2, title: 'services.additional.consulting.title', text: 'services.additional.consulting.text' },
];

const WHY: readonly FeatureCardItem[] = [
  { Icon: Clock, title: 'services.why.on_time.title', text: 'services.why.on_time.text' },
  { Icon: ShieldCheck, title: 'services.why.secure.title', text: 'services.why.secure.text' },
  { Icon: PackageSearch, title: 'services.why.tracking.title', text: 'services.why.tracking.text' },
  { Icon: Headphones, title: 'services.why.support.title', text: 'services.why.support.text' },
];

const CARRIERS = ['DHL', 'FedEx', 'UPS', 'Maersk', 'USPS', 'DB Schenker', 'SF Express', 'CMA CGM'];

/** One offering card; the small-screen copy carries the `-mobile` id suffix. */
function OfferingCard({ offering, mobile = false }: { offering: CoreService; mobile?: boolean }) {
  const t = useMessages('services');
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
            {t(feature)}
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function ServicesPage() {
  const t = useMessages('services');
  const { path } = useLanguage();
  const services = useCoreServices();
  const translated = (items: readonly FeatureCardItem[]) => items.map((item) => ({ ...item, title: t(item.title), text: t(item.text) }));
  useDocumentTitle(t('services.title'));
  const { hash } = useLocation();
  // The carousel opens on the offering the URL names (after hydration: the HTML shows the first).
  const hydrated = useHydrated();
  const named = hydrated ? services.findIndex(({ id }) => hash.replace(/^#/, '').replace(/-mobile$/, '') === id) : -1;
  return (
    <>
      <PageHero
        eyebrow={t('services.hero.eyebrow')}
        title={t('services.title')}
        intro={t('services.hero.intro')}
      />
      <Section label={t('services.modes.label')}>
        {/* Each card is the target of a footer link (/services#freight-mode-…). */}
        <Carousel
          key={named}
          className="only-small"
          label={t('services.modes.carousel')}
          items={services}
          initialIndex={Math.max(named, 0)}
          renderSlide={(offering) => <OfferingCard offering={offering} mobile />}
        />
        <ul className="card-grid card-grid-4 offering-grid only-large">
          {services.map((offering) => (
            <li key={offering.id}>
              <OfferingCard offering={offering} />
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="additional-title" title={t('services.additional.title')} alt>
        <FeatureCardGrid items={translated(ADDITIONAL)} columns={3} />
      </Section>

      <Section titleId="services-why-title" title={t('services.why.title')}>
        <FeatureCardGrid items={translated(WHY)} />
      </Section>

      <Section titleId="carriers-title" title={t('services.carriers.title')} alt>
        <Marquee label={t('services.carriers.label')} className="carrier-strip" items={CARRIERS.map((name) => <span className="carrier-logo">{name}</span>)} />
      </Section>

      <CallToAction
        titleId="services-cta"
        title={t('services.cta.title')}
        text={t('services.cta.text')}
      >
        <Link to={path('/contact')} className="btn btn-accent btn-lg">
          {t('services.cta.button')}
          <ArrowRight aria-hidden="true" size={20} className="flip-rtl" />
        </Link>
      </CallToAction>
    </>
  );
}
