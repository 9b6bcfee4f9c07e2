import { useCallback, useSyncExternalStore } from 'react';
import { chooseTheme, currentTheme, subscribeTheme, type Theme } from '@/lib/theme';

/** The page's theme and a toggle that saves the new choice. Prerendered HTML is light, so the
 * first (hydrating) render says light too and the real theme follows at once. */
export function useTheme(): { theme: Theme; toggleTheme: () => void } {
  const theme = useSyncExternalStore(subscribeTheme, currentTheme, () => 'light' as const);
  const toggleTheme = useCallback(() => chooseTheme(currentTheme() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggleTheme };
}
