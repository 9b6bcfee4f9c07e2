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
import { formatFigure } from '@/utils/figures';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import './about.css';

// Brand names, the same in every language; `title` is a message id.
const PARTNERSHIPS = [
  { title: 'about.partners.carriers', names: ['DHL', 'FedEx', 'UPS', 'USPS', 'Maersk', 'DB Schenker'] },
  { title: 'about.partners.tech', names: ['project44', 'FourKites', 'AfterShip', 'Descartes'] },
  { title: 'about.partners.asia', names: ['SF Express', 'Yamato Transport', 'China Post', 'Japan Post', 'Korea Post'] },
];

export default function AboutPage() {
  const t = useMessages('about');
  const { path } = useLanguage();
  useDocumentTitle(t('about.title'));

  const figures = [
    { label: t('about.fig.clients'), value: formatFigure(company.figures.clients) },
    { label: t('about.fig.on_time'), value: company.figures.onTime },
    { label: t('about.fig.support'), value: company.figures.support },
  ];
  const journey = [
    {
      year: company.foundedYear,
      title: t('about.journey.first'),
      text: t('about.journey.first_text', { office: company.firstOffice }),
    },
    { year: '2009', title: t('about.journey.atlantic'), text: t('about.journey.atlantic_text') },
    { year: '2014', title: t('about.journey.ocean'), text: t('about.journey.ocean_text') },
    { year: '2020', title: t('about.journey.online'), text: t('about.journey.online_text') },
    {
      year: t('about.journey.today'),
      title: t('about.journey.partner'),
      text: t('about.journey.partner_text', { clients: formatFigure(company.figures.clients) }),
    },
  ];
  const values = [
    { Icon: ShieldCheck, title: t('about.values.reliability'), text: t('about.values.reliability_text') },
    { Icon: Handshake, title: t('about.values.trust'), text: t('about.values.trust_text') },
    { Icon: HeartHandshake, title: t('about.values.focus'), text: t('about.values.focus_text') },
  ];
  const achievements = [
    { Icon: Trophy, title: t('about.awards.award'), text: t('about.awards.award_text') },
    { Icon: Globe2, title: t('about.awards.countries'), text: t('about.awards.countries_text') },
    { Icon: Target, title: 'ISO 9001:2015', text: t('about.awards.iso_text') },
  ];
  // A brand's own testimonials are shown as written; otherwise the site's, in the visitor's language.
  const testimonials =
    company.storyTestimonials.length > 0
      ? company.storyTestimonials
      : [
          { name: 'David Miller', role: t('about.reviews.david_role'), quote: t('about.reviews.david_quote'), rating: 5 },
          { name: 'Elena Rossi', role: t('about.reviews.elena_role'), quote: t('about.reviews.elena_quote'), rating: 5 },
          { name: 'Kenji Tanaka', role: t('about.reviews.kenji_role'), quote: t('about.reviews.kenji_quote'), rating: 4.5 },
        ];

  return (
    <>
      <PageHero
        eyebrow={t('about.eyebrow')}
        title={t('about.title')}
        intro={t('about.intro', { year: company.foundedYear, office: company.firstOffice, company: company.name })}
      />
      <Section label={t('about.glance')}>
        <StatList stats={figures} />
      </Section>

      <Section titleId="journey-title" title={t('about.journey.title')} alt>
        <ol className="journey">
          {journey.map(({ year, title, text }, index) => (
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

      <Section titleId="values-title" title={t('about.values.title')}>
        <FeatureCardGrid items={values} columns={3} />
      </Section>

      <Section titleId="achievements-title" title={t('about.awards.title')} alt>
        <FeatureCardGrid items={achievements} columns={3} />
      </Section>

      <Section titleId="story-testimonials-title" title={t('about.reviews.title')}>
        <Carousel
          className="only-small"
          label={t('about.reviews.label')}
          items={testimonials}
          renderSlide={(testimonial) => <TestimonialCard testimonial={testimonial} />}
        />
        <ul className="card-grid card-grid-3 only-large">
          {testimonials.map((testimonial) => (
            <li key={testimonial.name}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="partners-title" title={t('about.partners.title')} alt>
        <div className="card-grid card-grid-3">
          {PARTNERSHIPS.map(({ title, names }) => (
            <section key={title} className="card partner-group" aria-label={t(title)}>
              <h3>{t(title)}</h3>
              <ul className="chip-list">
                {names.map((name) => (
                  <li key={name}>{name}</li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </Section>

      <CallToAction titleId="about-cta" title={t('about.cta.title')} text={t('about.cta.text')}>
        <Link to={path('/contact')} className="btn btn-accent btn-lg">
          {t('about.cta.contact')}
        </Link>
      </CallToAction>
    </>
  );
}
