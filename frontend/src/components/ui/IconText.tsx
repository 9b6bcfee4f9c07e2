import type { ReactNode } from 'react';

/** An icon before a label ("⛴ Sea Shipping") that never strands the icon at a line's end: the
 * icon keeps to the label's first word, the rest wraps as words do. */
export function IconText({ icon, text }: { icon: ReactNode; text: string }) {
  const space = text.indexOf(' ');
  const first = space < 0 ? text : text.slice(0, space);
  const rest = space < 0 ? '' : text.slice(space);
  return (
    <span className="icon-text">
      <span className="icon-text-lead">
        {icon}
        {first}
      </span>
      {rest}
    </span>
  );
}
