import type { ReactNode } from 'react';
import { useState } from 'react';
import { ChevronDown, SlidersHorizontal } from 'lucide-react';

/** Wide enough for the filters to sit beside the list's controls without pushing the list away. */
const WIDE = '(min-width: 720px)';

type FilterFoldProps = {
  /** The id of the folded part (aria-controls). */
  id: string;
  /** How many filters differ from their default, shown on the button. */
  activeCount: number;
  /** Keeps the filters open, e.g. while one of them shows an error. */
  forceOpen?: boolean;
  children: ReactNode;
};

/** A list's filters behind a "Filters" button: open at first on wide screens, folded on a phone so
 * that the list comes first; the button says how many are set. */
export function FilterFold({ id, activeCount, forceOpen = false, children }: FilterFoldProps) {
  const [open, setOpen] = useState(() => window.matchMedia?.(WIDE).matches ?? true);
  if (forceOpen && !open) setOpen(true);
  return (
    <div className="filter-fold">
      <button
        type="button"
        className="btn btn-outline filter-fold-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <SlidersHorizontal aria-hidden="true" size={18} />
        Filters
        {activeCount > 0 && (
          <span className="filter-count">
            {activeCount}
            <span className="visually-hidden"> set</span>
          </span>
        )}
        <ChevronDown className="filter-fold-chevron" aria-hidden="true" size={16} />
      </button>
      <div id={id} className="filter-fold-body" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
