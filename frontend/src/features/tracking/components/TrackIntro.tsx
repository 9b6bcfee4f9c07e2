import { BellRing, Clock, Globe2, Handshake, PackageSearch, Search, ShieldCheck, Smartphone } from 'lucide-react';

const REASONS = [
  { Icon: Clock, title: 'Real-time Updates', text: 'Every scan and hand-over appears in your shipment history as soon as it happens.' },
  { Icon: Globe2, title: 'Worldwide Coverage', text: 'Follow parcels across more than 150 countries with one tracking number.' },
  { Icon: ShieldCheck, title: 'Secure & Reliable', text: 'Your shipment details are shown only to people who have the tracking number.' },
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
      <section className="section" aria-labelledby="why-tracking">
        <div className="container">
          <h2 id="why-tracking" className="section-title">
            Why Choose Our Tracking Service
          </h2>
          <p className="section-intro">Know where your shipment is at every step, from pickup to delivery.</p>
          <ul className="card-grid card-grid-4">
            {REASONS.map(({ Icon, title, text }) => (
              <li key={title} className="card feature-card">
                <span className="feature-icon">
                  <Icon aria-hidden="true" size={26} />
                </span>
                <h3>{title}</h3>
                <p>{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="how-tracking-works">
        <div className="container">
          <h2 id="how-tracking-works" className="section-title">
            How It Works
          </h2>
          <ol className="steps">
            {STEPS.map(({ Icon, title, text }, index) => (
              <li key={title} className="step">
                <span className="step-number" aria-hidden="true">
                  {index + 1}
                </span>
                <Icon className="step-icon" aria-hidden="true" size={28} />
                <h3>{title}</h3>
                <p>{text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="tracking-partners">
        <div className="container partners">
          <Handshake className="partners-icon" aria-hidden="true" size={36} />
          <h2 id="tracking-partners" className="section-title">
            Your Trusted Partner in Global Shipping
          </h2>
          <p className="section-intro">
            We hand over and track shipments with leading carriers worldwide, so one number covers the whole journey.
          </p>
          <ul className="partner-list" aria-label="Carrier partners">
            {PARTNERS.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
