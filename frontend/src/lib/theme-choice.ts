// The account page's theme choice, with "follow the system" beside light and dark; apart from
// theme.ts so the public pages do not load it.
import {
  THEME_STORAGE_KEY,
  announceThemeChoice,
  applyTheme,
  chooseTheme,
  resolveTheme,
  type ThemeChoice,
} from './theme';

/** The choice kept in this browser: a theme, or 'system' when none is stored. */
export function storedThemeChoice(): ThemeChoice {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'dark' || stored === 'light' ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Shows, keeps and announces a choice; 'system' forgets the kept theme and shows the system's. */
export function chooseThemeChoice(choice: ThemeChoice): void {
  if (choice !== 'system') {
    chooseTheme(choice);
    return;
  }
  try {
    window.localStorage.removeItem(THEME_STORAGE_KEY);
  } catch (err) {
    console.warn('Could not forget the theme', err);
  }
  applyTheme(resolveTheme(null, window.matchMedia('(prefers-color-scheme: dark)').matches));
  announceThemeChoice('system');
}
