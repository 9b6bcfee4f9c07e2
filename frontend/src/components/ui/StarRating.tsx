import { useMessages } from '@/lib/i18n';
import { i18n } from '@/lib/i18n';

const STAR = 'M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z';

function Stars({ filled }: { filled: boolean }) {
  return (
    <>
      {[0, 1, 2, 3, 4].map((i) => (
        <svg key={i} viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path d={STAR} fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        </svg>
      ))}
    </>
  );
}

/** Five stars filled to `rating` (halves included), read out as "Rated 4.5 out of 5", and the
 * figure beside them unless `hideValue` (when it is shown larger nearby). */
export function StarRating({ rating, hideValue = false }: { rating: number; hideValue?: boolean }) {
  const t = useMessages('common');
  const value = i18n.number(rating, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (
    <span className="star-rating" role="img" aria-label={t('common.rating', { rating: value })}>
      <span className="star-rating-stars">
        <Stars filled={false} />
        {/* The filled row, cut to the rating's share of the width. */}
        <span className="star-rating-fill" style={{ width: `${(rating / 5) * 100}%` }}>
          <Stars filled />
        </span>
      </span>
      {!hideValue && (
        <span className="star-rating-value" aria-hidden="true">
          {value}
        </span>
      )}
    </span>
  );
}
