import type { ReactNode } from 'react';
import { TransportProvider } from '@connectrpc/connect-query';
import { transport } from '@/lib/transport';
import { QueryProvider } from './query-provider';

/** Connect Query's transport and TanStack Query's cache, for the admin area (Home never loads
 * it). */
export function DataProvider({ children }: { children: ReactNode }) {
  return (
    <TransportProvider transport={transport}>
      <QueryProvider>{children}</QueryProvider>
    </TransportProvider>
  );
}
