import { useEffect } from 'react';
import { adoptTheme, onThemeChosen } from '@/lib/theme';
import { loadDarkMode, saveDarkMode } from '../api/preferences';

/** For a signed-in user: their stored theme wins over this browser's, and each toggle is saved
 * for them. Failures are logged; the page keeps the local or system theme. */
export function useStoredTheme(): void {
  useEffect(() => {
    const controller = new AbortController();
    loadDarkMode(controller.signal)
      .then((dark) => {
        if (dark !== undefined && !controller.signal.aborted) adoptTheme(dark ? 'dark' : 'light');
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('Could not load the stored theme', error);
      });
    const stop = onThemeChosen((theme) => {
      saveDarkMode(theme === 'dark').catch((error: unknown) => console.warn('Could not save the theme', error));
    });
    return () => {
      controller.abort();
      stop();
    };
  }, []);
}
