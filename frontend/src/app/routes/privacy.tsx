import { LegalDocument } from '@/components/ui/LegalDocument';
import { PageHero } from '@/components/ui/PageHero';
import { company } from '@/config/company';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useToday } from '@/hooks/use-today';
import { useMessages } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import { formatLongDate } from '@/utils/format';

const SECTIONS = [
  { title: 'privacy.collect.title', body: 'privacy.collect.body' },
  { title: 'privacy.use.title', body: 'privacy.use.body' },
  { title: 'privacy.sharing.title', body: 'privacy.sharing.body' },
  { title: 'privacy.security.title', body: 'privacy.security.body' },
  { title: 'privacy.rights.title', body: 'privacy.rights.body' },
  { title: 'privacy.cookies.title', body: 'privacy.cookies.body' },
  { title: 'privacy.contact.title', body: 'privacy.contact.body' },
] as const;

const VALUES = { company: company.name, address: company.address };
const COMPONENTS = { email: <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a> };

export default function PrivacyPage() {
  const t = useMessages('privacy');
  useDocumentTitle(t('privacy.title'));
  const today = useToday();
  return (
    <>
      <PageHero eyebrow={t('privacy.hero.eyebrow')} title={t('privacy.title')} intro={t('privacy.hero.intro', VALUES)}>
        <p className="page-hero-meta">
          <Trans id="privacy.hero.updated" values={{ date: formatLongDate(today) }} components={{ time: <time dateTime={today} /> }} />
        </p>
      </PageHero>
      <LegalDocument sections={SECTIONS} values={VALUES} components={COMPONENTS} />
    </>
  );
}
