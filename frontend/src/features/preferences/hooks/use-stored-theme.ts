import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adoptTheme, onThemeChosen } from '@/lib/theme';
import { loadDarkMode, saveDarkMode } from '../api/preferences';

/** For a signed-in user: their stored theme wins over this browser's, and each toggle is saved
 * for them. Failures are logged; the page keeps the local or system theme. */
const DARK_MODE_KEY = ['preferences', 'dark-mode'];

export function useStoredTheme(): void {
  const queryClient = useQueryClient();
  const { data: dark, error } = useQuery({
    queryKey: DARK_MODE_KEY,
    // null: the user never chose (a query's data cannot be undefined).
    queryFn: async ({ signal }) => (await loadDarkMode(signal)) ?? null,
  });
  useEffect(() => {
    // Never chosen (null): this browser's own choice, or the system's, stays.
    if (dark !== undefined && dark !== null) adoptTheme(dark ? 'dark' : 'light');
  }, [dark]);
  useEffect(() => {
    if (error) console.warn('Could not load the stored theme', error);
  }, [error]);
  useEffect(
    () =>
      onThemeChosen((choice) => {
        const dark = choice === 'system' ? undefined : choice === 'dark';
        queryClient.setQueryData(DARK_MODE_KEY, dark ?? null);
        saveDarkMode(dark).catch((err: unknown) => console.warn('Could not save the theme', err));
      }),
    [queryClient],
  );
}
