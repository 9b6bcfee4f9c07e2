import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { CalendarDays, Clock, LoaderCircle, PackageCheck, Scale } from 'lucide-react';
import type { Quote, QuoteOption } from '@/gen/logistics/v1/rate_card_service_pb';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { useLanguage } from '@/hooks/use-language';
import { useMessages, type Translate } from '@/lib/i18n';
import { Trans } from '@/lib/trans';
import { formatCents, formatDateTime, formatDecimal, formatKg } from '@/utils/format';
import { useBookFromQuote } from '../hooks/use-book-from-quote';
import { formatWeekdayRange } from '../utils/delivery-dates';
import { chargeLabelId, chargeableWeightMessageId, transitDays } from '../utils/quote-display';
import './quotes.css';

/** The answer under the form: the quote's number and validity, then one card per service
 * (cheapest first), or a sentence when the route has no service. Its heading takes the focus
 * each time an answer arrives, so it is read out. */
export default function QuoteResult({ quote }: { quote: Quote }) {
  const t = useMessages('quote');
  const { path } = useLanguage();
  const heading = useRef<HTMLHeadingElement>(null);
  const { book, opening } = useBookFromQuote();

  useEffect(() => {
    heading.current?.focus();
  }, [quote]);

  const expires = quote.expireTime ? formatDateTime(timestampDate(quote.expireTime)) : '';
  return (
    <section className="quote-result" aria-labelledby="quote-result-title">
      <h2 id="quote-result-title" ref={heading} tabIndex={-1} className="quote-result-title">
        {t('quote.result.title')}
      </h2>
      {quote.options.length === 0 ? (
        <p className="card quote-none">
          <Trans id="quote.result.none" components={{ link: <Link to={path('/contact')} /> }} />
        </p>
      ) : (
        <>
          <p className="quote-summary">
            {/* The number and the date keep their own direction inside an Arabic sentence. */}
            <Trans id="quote.result.summary" values={{ id: <bdi>{quote.id}</bdi>, date: <bdi>{expires}</bdi> }} />
          </p>
          <ul className="quote-options">
            {quote.options.map((option, index) => (
              <li key={option.serviceCode}>
                <OptionCard
                  option={option}
                  currency={quote.currency}
                  headingId={`quote-option-${index}`}
                  t={t}
                  opening={opening === option.serviceCode}
                  disabled={opening !== null}
                  onBook={() => void book(quote.token, option.serviceCode)}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

type OptionCardProps = {
  option: QuoteOption;
  currency: string;
  headingId: string;
  t: Translate;
  opening: boolean;
  disabled: boolean;
  onBook: () => void;
};

function OptionCard({ option, currency, headingId, t, opening, disabled, onBook }: OptionCardProps) {
  const transit = transitDays(option.transitDaysMin, option.transitDaysMax);
  const days =
    'days' in transit
      ? t('quote.option.transit_days', { days: transit.days })
      : t('quote.option.transit_range', { min: formatDecimal(transit.min), max: formatDecimal(transit.max) });
  return (
    <article className="card quote-option" aria-labelledby={headingId}>
      <div className="quote-option-head">
        <h3 id={headingId}>{option.serviceName}</h3>
        <p className="quote-price">
          <bdi>{formatCents(option.priceMinor, currency)}</bdi>
        </p>
      </div>
      <ul className="quote-facts">
        <li>
          <Scale aria-hidden="true" size={18} />
          <span>
            {t(chargeableWeightMessageId(option), { weight: formatKg(option.chargeableWeightKg), actual: formatKg(option.actualWeightKg) })}
          </span>
        </li>
        <li>
          <Clock aria-hidden="true" size={18} />
          <span>{t('quote.option.transit', { days })}</span>
        </li>
        <li>
          <CalendarDays aria-hidden="true" size={18} />
          <span>{t('quote.option.delivery', { dates: formatWeekdayRange(option.earliestDeliveryDate, option.latestDeliveryDate) })}</span>
        </li>
      </ul>
      {option.charges.length > 0 && (
        <div className="quote-charges">
          <p className="quote-charges-title">{t('quote.option.charges')}</p>
          <dl>
            {option.charges.map((charge, index) => (
              <div key={index} className="quote-charge">
                <dt>{t(chargeLabelId(charge.kind))}</dt>
                <dd>
                  <bdi>{formatCents(charge.amountMinor, currency)}</bdi>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      <div className="quote-option-actions">
        <button type="button" className="btn btn-primary" aria-describedby={headingId} disabled={disabled} onClick={onBook}>
          {opening ? <LoaderCircle className="icon-spin" aria-hidden="true" size={18} /> : <PackageCheck aria-hidden="true" size={18} />}
          {t('quote.option.book')}
        </button>
      </div>
    </article>
  );
}
