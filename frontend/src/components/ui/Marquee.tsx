import type { ReactNode } from 'react';

type MarqueeProps = { label: string; items: readonly ReactNode[]; className?: string };

/**
 * A strip that scrolls sideways forever (CSS only). The list is drawn twice so the loop has no
 * gap; the copy is hidden from assistive technology. Hover pauses it; reduced motion stops it.
 */
export function Marquee({ label, items, className }: MarqueeProps) {
  return (
    <div className={`marquee${className ? ` ${className}` : ''}`}>
      <div className="marquee-track">
        <ul className="marquee-list" aria-label={label}>
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
        <ul className="marquee-list" aria-hidden="true">
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
