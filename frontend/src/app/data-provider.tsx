import type { ReactNode } from 'react';
import { TransportProvider } from '@connectrpc/connect-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { transport } from '@/lib/transport';
import { queryClient } from './query-client';

/** Connect Query's transport and TanStack Query's cache, for the admin area (Home and the
 * public pages never load it). */
export function DataProvider({ children }: { children: ReactNode }) {
  return (
    <TransportProvider transport={transport}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </TransportProvider>
  );
}
