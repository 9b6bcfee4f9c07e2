import { lazy, Suspense, useSyncExternalStore } from 'react';
import { isToastHostWanted, subscribeToastHost } from '@/lib/toast';

const ToastContainerLazy = lazy(() => import('./ToastContainerLazy'));

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
