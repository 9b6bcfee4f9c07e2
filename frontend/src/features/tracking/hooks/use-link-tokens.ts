import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { KEEP_SCROLL } from '@/hooks/use-scroll-to-top-on-navigate';

/** The query parameters that links in the shipment's e-mails carry. */
export type LinkTokens = { access: string; confirm: string; unsubscribe: string };
export type LinkParam = keyof LinkTokens;

const NAMES: readonly LinkParam[] = ['access', 'confirm', 'unsubscribe'];
const NONE: LinkTokens = { access: '', confirm: '', unsubscribe: '' };

/**
 * The tokens of an e-mail link to /track/{number} (`?access=`, `?confirm=`, `?unsubscribe=`),
 * read from the address when they appear and kept for that number, so that `drop` can take
 * them out of the address bar (a shared or bookmarked address then carries no token) without
 * the page forgetting them.
 */
export function useLinkTokens(trackingNumber: string): LinkTokens & { drop: (names: LinkParam[]) => void } {
  const location = useLocation();
  const navigate = useNavigate();
  const [kept, setKept] = useState({ forNumber: trackingNumber, tokens: NONE });

  const params = new URLSearchParams(location.search);
  const tokens = kept.forNumber === trackingNumber ? { ...kept.tokens } : { ...NONE };
  for (const name of NAMES) tokens[name] = params.get(name) || tokens[name];
  if (kept.forNumber !== trackingNumber || NAMES.some((name) => tokens[name] !== kept.tokens[name])) {
    // Adjusting state while rendering: React's pattern for state that follows a changed input.
    setKept({ forNumber: trackingNumber, tokens });
  }

  const drop = useCallback(
    (names: LinkParam[]) => {
      const { pathname, search, hash } = window.location;
      const next = new URLSearchParams(search);
      if (!names.some((name) => next.has(name))) return;
      for (const name of names) next.delete(name);
      const query = next.toString();
      navigate({ pathname, search: query ? `?${query}` : '', hash }, { replace: true, state: KEEP_SCROLL });
    },
    [navigate],
  );

  return { ...tokens, drop };
}
