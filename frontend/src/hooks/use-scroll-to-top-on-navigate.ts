import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** Link state asking for a smooth scroll to the top (the footer's quick links scroll to the top smoothly). */
export const SMOOTH_SCROLL_TO_TOP = { scrollBehavior: 'smooth' } as const;

/** Link state for a change of the address that is not a new page (a token taken out of it). */
export const KEEP_SCROLL = { scrollBehavior: 'keep' } as const;

function scrollBehavior(state: unknown): string | undefined {
  return (state as { scrollBehavior?: string } | null)?.scrollBehavior;
}

/** A new page starts at the top; Back and Forward keep the browser's own scroll restoration,
 * and a #hash is left to useScrollToHash. */
export function useScrollToTopOnNavigate(): void {
  const { pathname, hash, key, state } = useLocation();
  const navigationType = useNavigationType();
  const behavior = scrollBehavior(state);
  const smooth = behavior === 'smooth';
  const keep = behavior === 'keep';
  useEffect(() => {
    if (navigationType === 'POP' || hash || keep) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: smooth && !reduceMotion ? 'smooth' : 'instant' });
  }, [pathname, hash, key, navigationType, smooth, keep]);
}
