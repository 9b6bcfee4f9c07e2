import { useMessages, type Page } from '@/lib/i18n';
import { Trans, type TransProps } from '@/lib/trans';
import './legal-document.css';

/** The message ids of a section: its heading and its one paragraph. */
type LegalSection = { title: string; body: string };

type LegalDocumentProps = Pick<TransProps, 'values' | 'components'> & {
  sections: readonly LegalSection[];
  numbered?: boolean;
};

/** The body of a legal page: its sections in order, numbered when `numbered`; `values` and
 * `components` fill in the paragraphs. The page has loaded its catalogue (useMessages). */
export function LegalDocument({ sections, numbered = false, values, components }: LegalDocumentProps) {
  const _ = useMessages((sections[0]?.title.split('.')[0] ?? 'common') as Page);
  return (
    <div className="container legal">
      {sections.map(({ title, body }, index) => (
        <section key={title} className="legal-section" aria-labelledby={`legal-${index + 1}`}>
          <h2 id={`legal-${index + 1}`}>{numbered ? `${index + 1}. ${_(title)}` : _(title)}</h2>
          <p>
            <Trans id={body} values={values} components={components} />
          </p>
        </section>
      ))}
    </div>
  );
}
