import { ArrowDown, BookUser, Building2, ClipboardCheck, FileText, KeyRound, MapPinned, Printer, Send, Truck, PackagePlus } from 'lucide-react';
import { Ltr } from '@/components/ui/Bidi';
import { FeatureCardGrid, type FeatureCardItem } from '@/components/ui/FeatureCardGrid';
import { PageHero } from '@/components/ui/PageHero';
import { Section } from '@/components/ui/Section';
import { StepList, type Step } from '@/components/ui/StepList';
import { company } from '@/config/company';
import { AccountRequestForm } from '@/features/account-requests/components/AccountRequestForm';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useMessages } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import { formatFigure } from '@/utils/figures';
import './ship-with-us.css';

// Titles and texts are message ids, translated when the page renders.
const BENEFITS: readonly FeatureCardItem[] = [
  { Icon: PackagePlus, title: 'ship_with_us.benefits.book.title', text: 'ship_with_us.benefits.book.text' },
  { Icon: Printer, title: 'ship_with_us.benefits.labels.title', text: 'ship_with_us.benefits.labels.text' },
  { Icon: Truck, title: 'ship_with_us.benefits.pickups.title', text: 'ship_with_us.benefits.pickups.text' },
  { Icon: MapPinned, title: 'ship_with_us.benefits.tracking.title', text: 'ship_with_us.benefits.tracking.text' },
  { Icon: BookUser, title: 'ship_with_us.benefits.address_book.title', text: 'ship_with_us.benefits.address_book.text' },
  { Icon: FileText, title: 'ship_with_us.benefits.statement.title', text: 'ship_with_us.benefits.statement.text' },
];

const STEPS: readonly Step[] = [
  { Icon: Send, title: 'ship_with_us.steps.ask.title', text: 'ship_with_us.steps.ask.text' },
  { Icon: ClipboardCheck, title: 'ship_with_us.steps.review.title', text: 'ship_with_us.steps.review.text' },
  { Icon: KeyRound, title: 'ship_with_us.steps.invite.title', text: 'ship_with_us.steps.invite.text' },
];

/** Ship with us: who a business account is for, what it gives, how to open one, and the form
 * that asks for it (at #request). */
export default function ShipWithUsPage() {
  const t = useMessages('ship_with_us');
  useDocumentTitle(t('ship_with_us.title'));
  const translated = <T extends { title: string; text: string }>(items: readonly T[]) =>
    items.map((item) => ({ ...item, title: t(item.title), text: t(item.text) }));
  return (
    <>
      <PageHero
        eyebrow={t('ship_with_us.hero.eyebrow')}
        title={t('ship_with_us.hero.title')}
        intro={
          // The company's name reads left to right on one line: wrapped in an Arabic sentence its
          // words would land at opposite ends of two lines.
          <Trans id="ship_with_us.hero.intro" values={{ company: <Ltr className="nowrap">{company.name}</Ltr>, clients: formatFigure(company.figures.clients) }} />
        }
      >
        <div className="button-row ship-hero-actions">
          <a href="#request" className="btn btn-accent btn-lg">
            {t('ship_with_us.hero.button')}
            <ArrowDown aria-hidden="true" size={20} />
          </a>
        </div>
      </PageHero>

      <Section titleId="ship-who-title" title={t('ship_with_us.who.title')} icon={<Building2 className="ship-who-icon" aria-hidden="true" size={36} />}>
        <p className="section-intro ship-who-text">
          {t('ship_with_us.who.text', { countries: company.figures.countries.replace('+', '') })}
        </p>
      </Section>

      <Section titleId="ship-benefits-title" title={t('ship_with_us.benefits.title')} alt>
        <FeatureCardGrid items={translated(BENEFITS)} columns={3} />
      </Section>

      <Section titleId="ship-steps-title" title={t('ship_with_us.steps.title')}>
        <StepList steps={translated(STEPS)} />
      </Section>

      <Section titleId="request" title={t('ship_with_us.form.title')} intro={t('ship_with_us.form.intro')} alt className="ship-request">
        <div className="card ship-request-card">
          <AccountRequestForm labelledBy="request" />
        </div>
      </Section>
    </>
  );
}
