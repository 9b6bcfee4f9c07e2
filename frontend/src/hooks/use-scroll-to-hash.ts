import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const HASH_SCROLL_DELAY_MS = 500;
const HASH_RETRY_EVERY_MS = 100;
const HASH_RETRY_FOR_MS = 3000;
const HASH_PULSE_MS = 2000;
const PULSE_CLASS = 'is-pulsing';

/** Marks an element this hook may scroll to and pulse (other #hashes, e.g. the skip link's, are
 * left to the browser). */
export const SCROLL_TARGET_ATTRIBUTE = 'data-scroll-target';

/** The element for this id that is on screen: the large-screen copy or its `-mobile` twin. */
function visibleTarget(id: string): HTMLElement | null {
  for (const candidate of [id, `${id}-mobile`]) {
    const element = document.getElementById(candidate);
    if (element?.hasAttribute(SCROLL_TARGET_ATTRIBUTE) && element.getClientRects().length > 0) return element;
  }
  return null;
}

/**
 * When the URL has a #hash naming an element: wait 500 ms, scroll it smoothly to the centre of
 * the screen and pulse it for 2 s. If the element is not there yet, look again every 100 ms
 * for up to 3 s. The footer's service links land on /services this way.
 */
export function useScrollToHash(): void {
  const { hash, key } = useLocation();

  useEffect(() => {
    const id = decodeURIComponent(hash.replace(/^#/, ''));
    if (!id) return;
    const timers: number[] = [];
    let retriesLeft = HASH_RETRY_FOR_MS / HASH_RETRY_EVERY_MS;

    const attempt = () => {
      const element = visibleTarget(id);
      if (!element) {
        if (retriesLeft-- > 0) timers.push(window.setTimeout(attempt, HASH_RETRY_EVERY_MS));
        return;
      }
      const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      element.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'center' });
      element.focus({ preventScroll: true });
      element.classList.add(PULSE_CLASS);
      timers.push(window.setTimeout(() => element.classList.remove(PULSE_CLASS), HASH_PULSE_MS));
    };

    timers.push(window.setTimeout(attempt, HASH_SCROLL_DELAY_MS));
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [hash, key]);
}
