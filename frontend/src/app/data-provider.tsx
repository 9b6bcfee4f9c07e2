import type { ReactNode } from 'react';
import { TransportProvider } from '@connectrpc/connect-query';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onSessionExpired } from '@/lib/session-events';
import { transport } from '@/lib/transport';

/** The one cache of server data, shared by the admin area and the tracking page. Each view asks
 * the server when it opens and when a change invalidates what it shows; nothing refetches on
 * focus or reconnect behind a form's back, and nothing retries unless its hook says so. */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { retry: false },
  },
});

// Another user may sign in next in this tab: they see nothing the last one loaded.
onSessionExpired(() => queryClient.clear());

/** Connect Query's transport and TanStack Query's cache, for the routes that fetch (admin and
 * tracking); Home never loads it. */
export function DataProvider({ children }: { children: ReactNode }) {
  return (
    <TransportProvider transport={transport}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </TransportProvider>
  );
}
