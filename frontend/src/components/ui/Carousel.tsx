import { useState, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useMessages } from '@/lib/i18n';

type CarouselProps<T> = {
  items: readonly T[];
  /** Names the carousel for assistive technology, e.g. "Client testimonials". */
  label: string;
  renderSlide: (item: T, index: number) => ReactNode;
  /** The slide shown first (e.g. the one a URL hash points at). */
  initialIndex?: number;
  className?: string;
};

/**
 * One slide at a time with previous/next buttons and a dot per slide, wrapping around at both
 * ends. Hand-written (about 1 KB): carousel libraries cost 10-40 KB of the 100 KB budget.
 */
export function Carousel<T>({ items, label, renderSlide, initialIndex = 0, className }: CarouselProps<T>) {
  const t = useMessages('common');
  const [index, setIndex] = useState(initialIndex);
  const count = items.length;
  const go = (next: number) => setIndex(((next % count) + count) % count);
  return (
    <div className={`carousel${className ? ` ${className}` : ''}`} role="region" aria-roledescription={t('common.carousel.role')} aria-label={label}>
      <div className="carousel-viewport" aria-live="polite">
        {items.map((item, i) => (
          <div
            key={i}
            className="carousel-slide"
            role="group"
            aria-roledescription={t('common.carousel.slide_role')}
            aria-label={t('common.carousel.slide', { number: i + 1, count })}
            hidden={i !== index}
          >
            {renderSlide(item, i)}
          </div>
        ))}
      </div>
      <div className="carousel-controls">
        <button type="button" className="icon-button carousel-arrow" aria-label={t('common.carousel.previous')} onClick={() => go(index - 1)}>
          <ChevronLeft className="flip-rtl" aria-hidden="true" size={22} />
        </button>
        <div className="carousel-dots">
          {items.map((_, i) => (
            <button
              key={i}
              type="button"
              className="carousel-dot"
              aria-label={t('common.carousel.show', { number: i + 1, count })}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => go(i)}
            />
          ))}
        </div>
        <button type="button" className="icon-button carousel-arrow" aria-label={t('common.carousel.next')} onClick={() => go(index + 1)}>
          <ChevronRight className="flip-rtl" aria-hidden="true" size={22} />
        </button>
      </div>
    </div>
  );
}
