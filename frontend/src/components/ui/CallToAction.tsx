import type { ReactNode } from 'react';

type CallToActionProps = { titleId: string; title: ReactNode; text: ReactNode; children: ReactNode };

/** The full-width gradient band closing a page: a title, a sentence and a row of buttons. */
export function CallToAction({ titleId, title, text, children }: CallToActionProps) {
  return (
    <section className="cta" aria-labelledby={titleId}>
      <div className="container cta-inner">
        <h2 id={titleId}>{title}</h2>
        <p>{text}</p>
        <div className="button-row">{children}</div>
      </div>
    </section>
  );
}
