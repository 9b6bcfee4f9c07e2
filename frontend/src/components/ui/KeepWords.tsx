import type { ReactNode } from 'react';

// A short hyphenated word ("e-mail", "E-mail"): browsers may break after its hyphen.
const HYPHENATED = /(\p{L}{1,3}-\p{L}+)/u;

/** Text whose short hyphenated words never break at their hyphen ("e-" / "mail"); the text
 * (and so what a screen reader reads) is unchanged. */
export function KeepWords({ text }: { text: string }): ReactNode {
  const parts = text.split(HYPHENATED);
  if (parts.length === 1) return text;
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      <span key={index} className="nowrap">
        {part}
      </span>
    ) : (
      part
    ),
  );
}
