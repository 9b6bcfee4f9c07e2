import { QueryClient } from '@tanstack/react-query';
import { onSessionExpired } from '@/lib/session-events';

/** The one cache of server data (the admin area). Each view asks
 * the server when it opens and when a change invalidates what it shows; nothing refetches on
 * focus or reconnect behind a form's back, and nothing retries unless its hook says so. */
export const queryClient = new QueryClient({
  defaultOptions: {
    // 'always': offline, a call fails at once with its message, as before, instead of waiting.
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});

// Another user may sign in next in this tab: they see nothing the last one loaded.
onSessionExpired(() => queryClient.clear());
