import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** Link state asking for a smooth scroll to the top (the footer's quick links, spec §2). */
export const SMOOTH_SCROLL_TO_TOP = { scrollBehavior: 'smooth' } as const;

function wantsSmooth(state: unknown): boolean {
  return (state as typeof SMOOTH_SCROLL_TO_TOP | null)?.scrollBehavior === 'smooth';
}

/** A new page starts at the top; Back and Forward keep the browser's own scroll restoration,
 * and a #hash is left to useScrollToHash. */
export function useScrollToTopOnNavigate(): void {
  const { pathname, hash, key, state } = useLocation();
  const navigationType = useNavigationType();
  const smooth = wantsSmooth(state);
  useEffect(() => {
    if (navigationType === 'POP' || hash) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: smooth && !reduceMotion ? 'smooth' : 'instant' });
  }, [pathname, hash, key, navigationType, smooth]);
}
