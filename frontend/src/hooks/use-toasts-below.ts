import { useLayoutEffect, type RefObject } from 'react';

/** Read by the top-right toasts' position (styles/index.css). */
const TOASTS_TOP = '--toasts-below';

/** Keeps the top-right toasts below this element (the admin bar) while it is on screen, so they never cover it. */
export function useToastsBelow(ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    let frame = 0;
    const update = () => {
      frame = 0;
      root.style.setProperty(TOASTS_TOP, `${Math.max(0, Math.ceil(element.getBoundingClientRect().bottom))}px`);
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const resized = new ResizeObserver(schedule);
    resized.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      resized.disconnect();
      root.style.removeProperty(TOASTS_TOP);
    };
  }, [ref]);
}
