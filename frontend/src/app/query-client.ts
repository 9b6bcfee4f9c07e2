import { QueryClient } from '@tanstack/react-query';
import { onSessionExpired } from '@/lib/session-events';

/** The one cache of server data, shared by the admin area and the tracking page. Each view asks
 * the server when it opens and when a change invalidates what it shows; nothing refetches on
 * focus or reconnect behind a form's back, and nothing retries unless its hook says so. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { retry: false },
  },
});

// Another user may sign in next in this tab: they see nothing the last one loaded.
onSessionExpired(() => queryClient.clear());
