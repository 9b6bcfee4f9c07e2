import { lazy, Suspense, useSyncExternalStore, type ComponentType } from 'react';
import { isToastHostWanted, subscribeToastHost } from '@/lib/toast';

const loadContainer = () => import('./ToastContainerLazy');
// Without signal the code may not come: no toasts then, rather than a page torn down.
const ToastContainerLazy = lazy(async (): Promise<{ default: ComponentType }> => {
  try {
    return await loadContainer();
  } catch {
    return { default: () => null };
  }
});

/** Mounts the toast container the first time a toast is shown. */
export function ToastHost() {
  const wanted = useSyncExternalStore(subscribeToastHost, isToastHostWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainerLazy />
    </Suspense>
  );
}
