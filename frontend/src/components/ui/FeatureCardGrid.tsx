import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

export type FeatureCardItem = { id?: string; Icon: LucideIcon; title: string; text: string };

type FeatureCardGridProps<T extends FeatureCardItem> = {
  items: readonly T[];
  /** `service` cards lift on hover and stretch their text so trailing links line up. */
  variant?: 'feature' | 'service';
  /** Extra content at the bottom of each card (e.g. a "Learn More" link). */
  renderFooter?: (item: T) => ReactNode;
  /** Cards per row on large screens. */
  columns?: 3 | 4;
};

/** A responsive grid (four or three columns on large screens) of cards, each with an icon, a title and a short text. */
export function FeatureCardGrid<T extends FeatureCardItem>({
  items,
  variant = 'feature',
  renderFooter,
  columns = 4,
}: FeatureCardGridProps<T>) {
  return (
    <ul className={`card-grid card-grid-${columns}`}>
      {items.map((item) => {
        const { id, Icon, title, text } = item;
        return (
          <li key={id ?? title} className={`card ${variant}-card`}>
            <span className="feature-icon">
              <Icon aria-hidden="true" size={26} />
            </span>
            <h3>{title}</h3>
            <p>{text}</p>
            {renderFooter?.(item)}
          </li>
        );
      })}
    </ul>
  );
}
