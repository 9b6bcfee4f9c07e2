import { Link } from 'react-router-dom';
import { LegalDocument } from '@/components/ui/LegalDocument';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useLanguage } from '@/hooks/use-language';
import { useToday } from '@/hooks/use-today';
import { useMessages } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import { formatLongDate } from '@/utils/format';

const SECTIONS = [
  { title: 'terms.acceptance.title', body: 'terms.acceptance.body' },
  { title: 'terms.service.title', body: 'terms.service.body' },
  { title: 'terms.responsibilities.title', body: 'terms.responsibilities.body' },
  { title: 'terms.shipping.title', body: 'terms.shipping.body' },
  { title: 'terms.liability.title', body: 'terms.liability.body' },
  { title: 'terms.property.title', body: 'terms.property.body' },
  { title: 'terms.termination.title', body: 'terms.termination.body' },
  { title: 'terms.modifications.title', body: 'terms.modifications.body' },
  { title: 'terms.contact.title', body: 'terms.contact.body' },
] as const;

const VALUES = { company: company.name };

export default function TermsPage() {
  const t = useMessages('terms');
  const { path } = useLanguage();
  useDocumentTitle(t('terms.title'));
  const today = useToday();
  return (
    <>
      <PageHero eyebrow={t('terms.hero.eyebrow')} title={t('terms.title')} intro={t('terms.hero.intro', VALUES)}>
        <p className="page-hero-meta">
          <Trans id="terms.hero.updated" values={{ date: formatLongDate(today) }} components={{ time: <time dateTime={today} /> }} />
        </p>
      </PageHero>
      <LegalDocument
        sections={SECTIONS}
        values={VALUES}
        components={{ email: <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>, link: <Link to={path('/contact')} /> }}
        numbered
      />
    </>
  );
}
