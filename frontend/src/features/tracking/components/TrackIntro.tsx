import { BellRing, Clock, Globe2, Handshake, PackageSearch, Search, ShieldCheck, Smartphone } from 'lucide-react';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { Section } from '@/components/ui/Section';
import { StepList } from '@/components/ui/StepList';
import { useMessages } from '@/lib/i18n';

// Titles and texts are ids of the 'track' catalogue.
const REASONS = [
  { Icon: Clock, title: 'track.why.realtime.title', text: 'track.why.realtime.text' },
  { Icon: Globe2, title: 'track.why.worldwide.title', text: 'track.why.worldwide.text' },
  { Icon: ShieldCheck, title: 'track.why.secure.title', text: 'track.why.secure.text' },
  { Icon: Smartphone, title: 'track.why.device.title', text: 'track.why.device.text' },
];

const STEPS = [
  { Icon: Search, title: 'track.how.enter.title', text: 'track.how.enter.text' },
  { Icon: PackageSearch, title: 'track.how.see.title', text: 'track.how.see.text' },
  { Icon: BellRing, title: 'track.how.plan.title', text: 'track.how.plan.text' },
];

const PARTNERS = ['DHL', 'FedEx', 'UPS', 'Maersk', 'USPS', 'DB Schenker'];

/** What the Track page shows before a search. */
export function TrackIntro() {
  const t = useMessages('track');
  const translated = (items: typeof REASONS) => items.map(({ Icon, title, text }) => ({ Icon, title: t(title), text: t(text) }));
  return (
    <>
      <Section titleId="why-tracking" title={t('track.why.title')} intro={t('track.why.intro')}>
        <FeatureCardGrid items={translated(REASONS)} />
      </Section>

      <Section titleId="how-tracking-works" title={t('track.how.title')} alt>
        <StepList steps={translated(STEPS)} />
      </Section>

      <Section
        titleId="tracking-partners"
        title={t('track.partners.title')}
        intro={t('track.partners.intro')}
        icon={<Handshake className="partners-icon" aria-hidden="true" size={36} />}
        containerClassName="partners"
      >
        <ul className="partner-list" aria-label={t('track.partners.label')}>
          {PARTNERS.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </Section>
    </>
  );
}
