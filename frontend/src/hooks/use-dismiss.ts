import { useEffect, useRef, type RefObject } from 'react';

/** While `open`, closes a popup on a click or tap outside `root` and on Escape (then focus goes
 * back to `trigger`). A popup inside another one closes first: its Escape goes no further. */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  trigger: RefObject<HTMLElement | null>,
  close: () => void,
): void {
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) closeRef.current();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopImmediatePropagation();
      closeRef.current();
      trigger.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    // Capture: the innermost popup's listener, added first, runs first.
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown, true);
    };
  }, [open, root, trigger]);
}
