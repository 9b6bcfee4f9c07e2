import { useLayoutEffect, useRef, useState } from 'react';

/** The zoom (at most 1) at which content `naturalWidthPx` wide fits the element's width, kept up
 * to date as the element resizes: a 4 in label on a 390 px phone is shown smaller, not scrolled. */
export function useFitScale<T extends HTMLElement>(naturalWidthPx: number) {
  const ref = useRef<T>(null);
  const [scale, setScale] = useState(1);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setScale(Math.min(1, element.clientWidth / naturalWidthPx));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [naturalWidthPx]);

  return { ref, scale };
}
