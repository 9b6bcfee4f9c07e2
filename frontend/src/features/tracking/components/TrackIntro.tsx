import { BellRing, Clock, Globe2, Handshake, PackageSearch, Search, ShieldCheck, Smartphone } from 'lucide-react';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { Section } from '@/components/ui/Section';
import { StepList } from '@/components/ui/StepList';

const REASONS = [
  { Icon: Clock, title: 'Real-time Updates', text: 'Every scan and hand-over appears in your shipment history as soon as it happens.' },
  { Icon: Globe2, title: 'Worldwide Coverage', text: 'Follow parcels across more than 150 countries with one tracking number.' },
  { Icon: ShieldCheck, title: 'Secure & Reliable', text: 'Anyone with the number sees where a shipment is; addresses and contact details only the shipper and the receiver.' },
  { Icon: Smartphone, title: 'Any Device', text: 'Track from your phone, tablet or desktop — no account or app needed.' },
];

const STEPS = [
  { Icon: Search, title: 'Enter your number', text: 'Type the tracking number from your confirmation e-mail, starting with PSE.' },
  { Icon: PackageSearch, title: 'See where it is', text: 'Get the current status, location and the full journey of your shipment.' },
  { Icon: BellRing, title: 'Plan the delivery', text: 'Check the expected delivery date and be ready when your package arrives.' },
];

const PARTNERS = ['DHL', 'FedEx', 'UPS', 'Maersk', 'USPS', 'DB Schenker'];

/** What the Track page shows before a search. */
export function TrackIntro() {
  return (
    <>
      <Section
        titleId="why-tracking"
        title="Why Choose Our Tracking Service"
        intro="Know where your shipment is at every step, from pickup to delivery."
      >
        <FeatureCardGrid items={REASONS} />
      </Section>

      <Section titleId="how-tracking-works" title="How It Works" alt>
        <StepList steps={STEPS} />
      </Section>

      <Section
        titleId="tracking-partners"
        title="Your Trusted Partner in Global Shipping"
        intro="We hand over and track shipments with leading carriers worldwide, so one number covers the whole journey."
        icon={<Handshake className="partners-icon" aria-hidden="true" size={36} />}
        containerClassName="partners"
      >
        <ul className="partner-list" aria-label="Carrier partners">
          {PARTNERS.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      </Section>
    </>
  );
}
