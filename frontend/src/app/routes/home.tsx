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
import { useCoreServices } from '@/components/ui/core-services';
import { FeatureCardGrid } from '@/components/ui/FeatureCardGrid';
import { Marquee } from '@/components/ui/Marquee';
import { motion } from '@/components/ui/motion';
import { Section } from '@/components/ui/Section';
import { StarRating } from '@/components/ui/StarRating';
import { StatList } from '@/components/ui/StatList';
import { TestimonialCard } from '@/components/ui/TestimonialCard';
import { company } from '@/config/company';
import { formatFigure } from '@/utils/figures';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useMessages } from '@/lib/i18n';
import './home.css';

export default function HomePage() {
  const t = useMessages('home');
  const { path } = useLanguage();
  const services = useCoreServices();
  useDocumentTitle('');

  const stats = [
    { value: company.figures.countries, label: t('home.stat.countries') },
    { value: company.figures.years, label: t('home.stat.years') },
    { value: formatFigure(company.figures.packages), label: t('home.stat.packages') },
    { value: company.figures.satisfaction, label: t('home.stat.satisfaction') },
  ];
  const highlights = [
    { Icon: Globe2, title: t('home.hl.network'), text: t('home.hl.network_text') },
    { Icon: Award, title: t('home.hl.quality'), text: t('home.hl.quality_text') },
    { Icon: Headphones, title: t('home.hl.support'), text: t('home.hl.support_text') },
    { Icon: Users, title: t('home.hl.team'), text: t('home.hl.team_text') },
  ];
  const why = [
    { Icon: Globe2, title: t('home.hl.network') },
    { Icon: ShieldCheck, title: t('home.why.secure') },
    { Icon: Clock, title: t('home.why.support') },
    { Icon: PackageSearch, title: t('home.why.tracking') },
  ];
  const promotions = [t('home.offer.discount'), t('home.offer.tracking'), t('home.offer.support')];
  const steps = [
    { Icon: FileText, title: t('home.how.quote'), text: t('home.how.quote_text') },
    { Icon: CalendarCheck, title: t('home.how.book'), text: t('home.how.book_text') },
    { Icon: Truck, title: t('home.how.pickup'), text: t('home.how.pickup_text') },
    { Icon: PackageCheck, title: t('home.how.delivery'), text: t('home.how.delivery_text') },
  ];
  const certifications = [
    { Icon: BadgeCheck, title: 'ISO 9001:2015', text: t('home.cert.iso') },
    { Icon: Plane, title: t('home.cert.iata'), text: t('home.cert.iata_text') },
    { Icon: ShieldCheck, title: t('home.cert.ctpat'), text: t('home.cert.ctpat_text') },
    { Icon: Award, title: t('home.cert.aeo'), text: t('home.cert.aeo_text') },
  ];
  // A brand's own testimonials are shown as written; otherwise the site's, in the visitor's language.
  const testimonials =
    company.testimonials.length > 0
      ? company.testimonials
      : [
          { name: 'Sarah Johnson', role: t('home.reviews.sarah_role'), quote: t('home.reviews.sarah_quote'), rating: 5 },
          { name: 'Michael Chen', role: t('home.reviews.michael_role'), quote: t('home.reviews.michael_quote'), rating: 4.5 },
          { name: 'Amara Okafor', role: t('home.reviews.amara_role'), quote: t('home.reviews.amara_quote'), rating: 5 },
        ];

  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero-inner">
          <div className="hero-copy">
            <p className="eyebrow eyebrow-light">{company.name}</p>
            <h1 id="hero-title">{t('home.hero.title')}</h1>
            <p className="hero-lead">{t('home.hero.lead')}</p>
            <div className="button-row">
              <Link to={path('/track')} className="btn btn-accent btn-lg">
                <PackageSearch aria-hidden="true" size={20} />
                {t('home.track')}
              </Link>
              <Link to={path('/contact')} className="btn btn-ghost-light btn-lg">
                {t('home.quote')}
                <ArrowRight className="flip-rtl" aria-hidden="true" size={20} />
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

      <section className="promo-banner" aria-label={t('home.offers')}>
        <Marquee label={t('home.offers')} items={promotions} />
      </section>

      <Section label={t('home.figures')} className="stats-section">
        <StatList stats={stats} />
      </Section>

      <Section titleId="highlights-title" title={t('home.hl.title')} alt>
        <FeatureCardGrid items={highlights} />
      </Section>

      <Section
        titleId="services-title"
        title={t('home.svc.title')}
        intro={t('home.svc.intro')}
      >
        <FeatureCardGrid
          items={services}
          variant="service"
          renderFooter={({ title }) => (
            <Link to={path('/services')} className="card-link">
              {t('home.more')}
              <span className="visually-hidden">{t('home.more_about', { title })}</span>
              <ArrowRight className="flip-rtl" aria-hidden="true" size={16} />
            </Link>
          )}
        />
      </Section>

      <Section titleId="why-title" title={t('home.why.title')} alt>
        <ul className="why-list">
          {why.map(({ Icon, title }) => (
            <li key={title}>
              <Icon aria-hidden="true" size={22} />
              {title}
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="how-title" title={t('home.how.title')} intro={t('home.how.intro')}>
        <ol className="timeline">
          {steps.map(({ Icon, title, text }, index) => (
            <li key={title} {...motion('slide', index * 100, 'timeline-step')}>
              <span className="timeline-marker" aria-hidden="true">
                <Icon size={24} />
              </span>
              <h3>
                <span className="visually-hidden">{t('home.how.step', { n: index + 1 })}</span>
                {title}
              </h3>
              <p>{text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section titleId="certifications-title" title={t('home.cert.title')} alt>
        <ul className="card-grid card-grid-4 certifications">
          {certifications.map(({ Icon, title, text }, index) => (
            <li key={title} {...motion('scale', index * 100, 'card certification hover-lift')}>
              <Icon className="certification-icon" aria-hidden="true" size={36} />
              <h3>{title}</h3>
              <p>{text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section titleId="testimonials-title" title={t('home.reviews.title')}>
        <ul className="card-grid card-grid-3 testimonials">
          {testimonials.map((testimonial, index) => (
            <li key={testimonial.name} {...motion('fade', index * 100)}>
              <TestimonialCard testimonial={testimonial} />
            </li>
          ))}
        </ul>
        <div className="overall-rating">
          <p className="overall-rating-score">{company.figures.rating}</p>
          <StarRating rating={Number(company.figures.rating)} hideValue />
          <p className="muted">{t('home.reviews.count', { reviews: company.figures.reviews })}</p>
        </div>
      </Section>

      <CallToAction
        titleId="cta-title"
        title={t('home.cta.title')}
        text={t('home.cta.text')}
      >
        <Link to={path('/contact')} className="btn btn-accent btn-lg">
          {t('home.cta.start')}
        </Link>
        <Link to={path('/services')} className="btn btn-ghost-light btn-lg">
          {t('home.more')}
        </Link>
      </CallToAction>
    </>
  );
}
