import { Link } from 'react-router-dom';
import {
  ArrowRight,
  Award,
  BadgeCheck,
  CalendarCheck,
  Clock,
  FileText,
  Globe2,
  Headphones,
  PackageCheck,
  PackageSearch,
  Plane,
  ShieldCheck,
  Truck,
  Users,
} from 'lucide-react';
import { CallToAction } from '@/components/ui/CallToAction';
import { CORE_SERVICES } from '@/components/ui/core-services';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { Marquee } from '@/components/ui/Marquee';
import { motion } from '@/components/ui/motion';
import { Section } from '@/components/ui/Section';
import { StarRating } from '@/components/ui/StarRating';
import { StatList } from '@/components/ui/StatList';
import { TestimonialCard } from '@/components/ui/TestimonialCard';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';

const STATS = [
  { value: company.figures.countries, label: 'Countries Served' },
  { value: company.figures.years, label: 'Years of Experience' },
  { value: company.figures.packages, label: 'Packages Delivered' },
  { value: company.figures.satisfaction, label: 'Customer Satisfaction' },
];

const HIGHLIGHTS = [
  { Icon: Globe2, title: 'Global Network', text: 'Partners and hubs on every continent move your goods without gaps.' },
  { Icon: Award, title: 'Quality Assurance', text: 'Certified processes and careful handling at every hand-over.' },
  { Icon: Headphones, title: 'Full-Service Support', text: 'One team for quotes, customs paperwork and delivery questions, 24/7.' },
  { Icon: Users, title: 'Expert Team', text: 'Logistics specialists who plan the best route for every shipment.' },
];

const WHY = [
  { Icon: Globe2, title: 'Global Network' },
  { Icon: ShieldCheck, title: 'Secure Shipping' },
  { Icon: Clock, title: '24/7 Support' },
  { Icon: PackageSearch, title: 'Real-time Tracking' },
];

const PROMOTIONS = ['20% off international shipping', 'Real-time tracking on every parcel', '24/7 customer support'];

const STEPS = [
  { Icon: FileText, title: 'Request Quote', text: 'Tell us what you ship and where; get a price within one business day.' },
  { Icon: CalendarCheck, title: 'Book Shipment', text: 'Confirm the quote and choose a pickup date that suits you.' },
  { Icon: Truck, title: 'Package Pickup', text: 'Our driver collects your goods and you get a tracking number.' },
  { Icon: PackageCheck, title: 'Fast Delivery', text: 'Follow every step online until the package is delivered.' },
];

const CERTIFICATIONS = [
  { Icon: BadgeCheck, title: 'ISO 9001:2015', text: 'Quality Management System' },
  { Icon: Plane, title: 'IATA Member', text: 'International Air Transport Association' },
  { Icon: ShieldCheck, title: 'C-TPAT Certified', text: 'Customs-Trade Partnership Against Terrorism' },
  { Icon: Award, title: 'AEO Certified', text: 'Authorised Economic Operator' },
];

export default function HomePage() {
  useDocumentTitle('');
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-inner">
          <div className="hero-copy">
            <p className="eyebrow eyebrow-light">{company.name}</p>
            <h1 id="hero-title">Global Shipping &amp; Logistics Solutions</h1>
            <p className="hero-lead">
              Air, sea and ground freight with warehousing and real-time tracking — delivered on time to more than
              150 countries.
            </p>
            <div className="button-row">
              <Link to="/track" className="btn btn-accent btn-lg">
                <PackageSearch aria-hidden="true" size={20} />
                Track Package
              </Link>
              <Link to="/contact" className="btn btn-ghost-light btn-lg">
                Get a Quote
                <ArrowRight aria-hidden="true" size={20} />
              </Link>
            </div>
          </div>
          <div className="hero-art" aria-hidden="true">
            <svg viewBox="0 0 400 320" className="hero-globe">
              <defs>
                <linearGradient id="hero-globe-fill" x1="0" y1="0" x2="1" y2="1">
                  <stop offset="0" stopColor="rgba(255,255,255,0.22)" />
                  <stop offset="1" stopColor="rgba(255,255,255,0.04)" />
                </linearGradient>
              </defs>
              <circle cx="200" cy="160" r="130" fill="url(#hero-globe-fill)" stroke="rgba(255,255,255,0.45)" strokeWidth="2" />
              <ellipse cx="200" cy="160" rx="60" ry="130" fill="none" stroke="rgba(255,255,255,0.3)" strokeWidth="2" />
              <ellipse cx="200" cy="160" rx="130" ry="48" fill="none" stroke="rgba(255,255,255,0.3)" strokeWidth="2" />
              <line x1="70" y1="160" x2="330" y2="160" stroke="rgba(255,255,255,0.3)" strokeWidth="2" />
              <path d="M95 105 C 160 30, 260 40, 320 120" fill="none" stroke="#fbbf24" strokeWidth="3" strokeDasharray="8 8" />
              <path d="M90 220 C 170 280, 270 260, 318 200" fill="none" stroke="#fbbf24" strokeWidth="3" strokeDasharray="8 8" />
              <circle cx="95" cy="105" r="8" fill="#fbbf24" />
              <circle cx="320" cy="120" r="8" fill="#fbbf24" />
              <circle cx="90" cy="220" r="8" fill="#fbbf24" />
              <circle cx="318" cy="200" r="8" fill="#fbbf24" />
            </svg>
          </div>
        </div>
      </section>

      <section className="promo-banner" aria-label="Current offers">
        <Marquee label="Current offers" items={PROMOTIONS} />
      </section>

      <Section label="Key figures" className="stats-section">
        <StatList stats={STATS} />
      </Section>

      <Section titleId="highlights-title" title="Why Businesses Ship With Us" alt>
        <FeatureCardGrid items={HIGHLIGHTS} />
      </Section>

      <Section
        titleId="services-title"
        title="Our Services"
        intro="Whatever you ship and wherever it goes, we have the right way to move it."
      >
        <FeatureCardGrid
          items={CORE_SERVICES}
          variant="service"
          renderFooter={({ title }) => (
            <Link to="/services" className="card-link">
              Learn More<span className="visually-hidden"> about {title}</span>
              <ArrowRight aria-hidden="true" size={16} />
            </Link>
          )}
        />
      </Section>

      <Section titleId="why-title" title="Why Choose Us" alt>
        <ul className="why-list">
          {WHY.map(({ Icon, title }) => (
            <li key={title}>
              <Icon aria-hidden="true" size={22} />
              {title}
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="how-title" title="How It Works" intro="From quote to doorstep in four simple steps.">
        <ol className="timeline">
          {STEPS.map(({ Icon, title, text }, index) => (
            <li key={title} {...motion('slide', index * 100, 'timeline-step')}>
              <span className="timeline-marker" aria-hidden="true">
                <Icon size={24} />
              </span>
              <h3>
                <span className="visually-hidden">Step {index + 1}: </span>
                {title}
              </h3>
              <p>{text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section titleId="certifications-title" title="Our Certifications & Achievements" alt>
        <ul className="card-grid card-grid-4 certifications">
          {CERTIFICATIONS.map(({ Icon, title, text }, index) => (
            <li key={title} {...motion('scale', index * 100, 'card certification hover-lift')}>
              <Icon className="certification-icon" aria-hidden="true" size={36} />
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="testimonials-title" title="What Our Clients Say">
        <ul className="card-grid card-grid-3 testimonials">
          {company.testimonials.map((testimonial, index) => (
            <li key={testimonial.name} {...motion('fade', index * 100)}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
        <div className="overall-rating">
          <p className="overall-rating-score">{company.figures.rating}</p>
          <StarRating rating={Number(company.figures.rating)} hideValue />
          <p className="muted">Based on {company.figures.reviews} reviews</p>
        </div>
      </Section>

      <CallToAction
        titleId="cta-title"
        title="Ready to Ship with Us?"
        text="Tell us what you are shipping and where, and we will send you a quote within one business day."
      >
        <Link to="/contact" className="btn btn-accent btn-lg">
          Get Started
        </Link>
        <Link to="/services" className="btn btn-ghost-light btn-lg">
          Learn More
        </Link>
      </CallToAction>
    </>
  );
}
