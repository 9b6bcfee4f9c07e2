import { QueryClient } from '@tanstack/react-query';

/** The one cache of server data (the admin area, and /track's lookup). Each view asks
 * the server when it opens and when a change invalidates what it shows; nothing refetches on
 * focus or reconnect behind a form's back, and nothing retries unless its hook says so. When a
 * session ends, the admin-session feature empties it (features/admin-session/hooks/use-session.ts). */
export const queryClient = new QueryClient({
  defaultOptions: {
    // 'always': offline, a call fails at once with its message, as before, instead of waiting.
    queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});
