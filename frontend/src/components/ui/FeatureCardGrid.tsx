import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

export type FeatureCardItem = { id?: string; Icon: LucideIcon; title: string; text: string };

type FeatureCardGridProps<T extends FeatureCardItem> = {
  items: readonly T[];
  /** `service` cards lift on hover and stretch their text so trailing links line up. */
  variant?: 'feature' | 'service';
  /** 3 under a section title; 2 when the section has no visible title. */
  headingLevel?: 2 | 3;
  /** Put each item's id on its card (a #hash target that can take focus). */
  anchored?: boolean;
  /** Extra content at the bottom of each card (e.g. a "Learn More" link). */
  renderFooter?: (item: T) => ReactNode;
};

/** A responsive four-column grid of cards, each with an icon, a title and a short text. */
export function FeatureCardGrid<T extends FeatureCardItem>({
  items,
  variant = 'feature',
  headingLevel = 3,
  anchored = false,
  renderFooter,
}: FeatureCardGridProps<T>) {
  return (
    <ul className="card-grid card-grid-4">
      {items.map((item) => {
        const { id, Icon, title, text } = item;
        return (
          <li
            key={id ?? title}
            id={anchored ? id : undefined}
            className={`card ${variant}-card`}
            tabIndex={anchored ? -1 : undefined}
          >
            <span className="feature-icon">
              <Icon aria-hidden="true" size={26} />
            </span>
            {headingLevel === 2 ? <h2 className="card-heading">{title}</h2> : <h3>{title}</h3>}
            <p>{text}</p>
            {renderFooter?.(item)}
          </li>
        );
      })}
    </ul>
  );
}
