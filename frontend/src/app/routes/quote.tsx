import { lazy, Suspense, useState } from 'react';
import type { Quote } from '@/gen/logistics/v1/rate_card_service_pb';
import { PageHero } from '@/components/ui/PageHero';
import { Spinner } from '@/components/ui/Spinner';
import { QuoteForm } from '@/features/quotes/components/QuoteForm';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useMessages } from '@/lib/i18n';

// The answer's cards come with the first answer, not with the page.
const QuoteResult = lazy(() => import('@/features/quotes/components/QuoteResult'));

/** /quote: an instant quote for anyone (a customer's user signed in here: on their own card),
 * each service's price, transit and delivery days, and "Book this". */
export default function QuotePage() {
  const t = useMessages('quote');
  useDocumentTitle(t('quote.title'));
  const [quote, setQuote] = useState<Quote | null>(null);
  return (
    <>
      <PageHero eyebrow={t('quote.hero.eyebrow')} title={t('quote.hero.title')} intro={t('quote.hero.intro')} />
      <section className="section" aria-labelledby="quote-form-title">
        <div className="container">
          <div className="card quote-card">
            <h2 id="quote-form-title" className="card-heading">
              {t('quote.form.title')}
            </h2>
            <QuoteForm labelledBy="quote-form-title" onQuote={setQuote} />
          </div>
          {quote && (
            <Suspense fallback={<Spinner size="md" />}>
              <QuoteResult quote={quote} />
            </Suspense>
          )}
        </div>
      </section>
    </>
  );
}
