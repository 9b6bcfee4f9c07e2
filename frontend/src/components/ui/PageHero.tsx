import type { ReactNode } from 'react';

type PageHeroProps = { eyebrow?: string; title: string; intro?: ReactNode; children?: ReactNode };

/** The banner at the top of an inner page: an h1 and a short introduction. */
export function PageHero({ eyebrow, title, intro, children }: PageHeroProps) {
  return (
    <section className="page-hero">
      <div className="container">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1>{title}</h1>
        {intro && <p className="page-hero-intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}
