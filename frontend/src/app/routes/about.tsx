import { Link } from 'react-router-dom';
import { Globe2, Handshake, HeartHandshake, ShieldCheck, Target, Trophy } from 'lucide-react';
import { CallToAction } from '@/components/ui/CallToAction';
import { Carousel } from '@/components/ui/Carousel';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { motion } from '@/components/ui/motion';
import { PageHero } from '@/components/ui/PageHero';
import { Section } from '@/components/ui/Section';
import { StatList } from '@/components/ui/StatList';
import { TestimonialCard } from '@/components/ui/TestimonialCard';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';

const FIGURES = [
  { label: 'Happy Clients', value: company.figures.clients },
  { label: 'On-time Delivery', value: company.figures.onTime },
  { label: 'Customer Support', value: company.figures.support },
];

const JOURNEY = [
  { year: company.foundedYear, title: 'The first office', text: `We open our doors in ${company.firstOffice} with two vans and a promise: every parcel on time.` },
  { year: '2009', title: 'Across the Atlantic', text: 'Air freight partnerships connect our customers to Europe and Africa.' },
  { year: '2014', title: 'Ocean and warehousing', text: 'Sea freight and our first bonded warehouses open on the major trade lanes.' },
  { year: '2020', title: 'Shipping solutions, worldwide', text: 'Online quotes and real-time tracking reach customers in more than 150 countries.' },
  { year: 'Today', title: 'A trusted global partner', text: `${company.figures.clients} clients rely on us for air, sea and ground freight.` },
];

const VALUES = [
  { Icon: ShieldCheck, title: 'Reliability', text: 'We do what we promise: on time, intact and documented at every hand-over.' },
  { Icon: Handshake, title: 'Trust', text: 'Clear prices, honest delivery dates and your data kept safe.' },
  { Icon: HeartHandshake, title: 'Customer Focus', text: 'A real person who knows your shipment answers, day and night.' },
];

const ACHIEVEMENTS = [
  { Icon: Trophy, title: 'Logistics Provider of the Year', text: 'Regional logistics awards, three years running.' },
  { Icon: Globe2, title: '150+ countries', text: 'A delivery network that reaches every continent.' },
  { Icon: Target, title: 'ISO 9001:2015', text: 'Certified quality management across all our hubs.' },
];

const PARTNERSHIPS = [
  { title: 'Carriers', names: ['DHL', 'FedEx', 'UPS', 'USPS', 'Maersk', 'DB Schenker'] },
  { title: 'Tracking technology', names: ['project44', 'FourKites', 'AfterShip', 'Descartes'] },
  { title: 'Asian carriers', names: ['SF Express', 'Yamato Transport', 'China Post', 'Japan Post', 'Korea Post'] },
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

      <Section titleId="journey-title" title="Our Journey" alt>
        <ol className="journey">
          {JOURNEY.map(({ year, title, text }, index) => (
            <li key={year} {...motion('slide', index * 100, 'journey-item')}>
              <span className="journey-year">{year}</span>
              <div>
                <h3>{title}</h3>
                <p>{text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <Section titleId="values-title" title="Our Values">
        <FeatureCardGrid items={VALUES} columns={3} />
      </Section>

      <Section titleId="achievements-title" title="Our Achievements" alt>
        <FeatureCardGrid items={ACHIEVEMENTS} columns={3} />
      </Section>

      <Section titleId="story-testimonials-title" title="What Our Clients Say">
        <Carousel
          className="only-small"
          label="Client testimonials"
          items={company.storyTestimonials}
          renderSlide={(testimonial) => <TestimonialCard testimonial={testimonial} />}
        />
        <ul className="card-grid card-grid-3 only-large">
          {company.storyTestimonials.map((testimonial) => (
            <li key={testimonial.name}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="partners-title" title="Our Partnerships" alt>
        <div className="card-grid card-grid-3">
          {PARTNERSHIPS.map(({ title, names }) => (
            <section key={title} className="card partner-group" aria-label={title}>
              <h3>{title}</h3>
              <ul className="chip-list">
                {names.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </Section>

      <CallToAction titleId="about-cta" title="Ship With a Partner You Can Trust" text="Tell us about your shipment and we will take it from there.">
        <Link to="/contact" className="btn btn-accent btn-lg">
          Contact Us
        </Link>
      </CallToAction>
    </>
  );
}
