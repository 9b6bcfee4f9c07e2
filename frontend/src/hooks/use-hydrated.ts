import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/** False while prerendering and during hydration, true after: lets a page depend on the URL hash
 * or the clock without hydrating differently from its static HTML. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
