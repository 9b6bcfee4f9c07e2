import type { ReactNode } from 'react';

export type LegalSection = { title: string; body: ReactNode };

/** The body of a legal page: its sections in order, numbered when `numbered`. */
export function LegalDocument({ sections, numbered = false }: { sections: readonly LegalSection[]; numbered?: boolean }) {
  return (
    <div className="container legal">
      {sections.map(({ title, body }, index) => (
        <section key={title} className="legal-section" aria-labelledby={`legal-${index + 1}`}>
          <h2 id={`legal-${index + 1}`}>{numbered ? `${index + 1}. ${title}` : title}</h2>
          {body}
        </section>
      ))}
    </div>
  );
}
