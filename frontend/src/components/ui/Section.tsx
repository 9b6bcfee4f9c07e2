import type { ReactNode } from 'react';

type Labelling =
  /** A visible h2 (with the id the section's aria-labelledby points at). */
  | { titleId: string; title: ReactNode; label?: never }
  /** No visible heading: the section is named by aria-label. */
  | { label: string; titleId?: never; title?: never };

type SectionProps = Labelling & {
  /** Centred muted text under the title. */
  intro?: ReactNode;
  /** Shown above the title (e.g. a decorative icon). */
  icon?: ReactNode;
  /** The tinted background used to alternate sections. */
  alt?: boolean;
  /** Extra classes on the <section> and on its inner container. */
  className?: string;
  containerClassName?: string;
  children: ReactNode;
};

function classes(...names: Array<string | false | undefined>): string {
  return names.filter(Boolean).join(' ');
}

/** A page section: full-width band, centred container, optional h2 title and intro. */
export function Section({ titleId, title, label, intro, icon, alt, className, containerClassName, children }: SectionProps) {
  return (
    <section
      className={classes('section', alt && 'section-alt', className)}
      aria-labelledby={titleId}
      aria-label={label}
    >
      <div className={classes('container', containerClassName)}>
        {icon}
        {title !== undefined && (
          <h2 id={titleId} className="section-title">
            {title}
          </h2>
        )}
        {intro && <p className="section-intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}
